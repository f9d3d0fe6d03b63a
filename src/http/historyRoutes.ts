// The two routes of a history (the recorded operating states of a workplace, phases of an
// operation, activities of a staff member): a page in timestamp mode on startDate, newest first,
// and one record (docs/api.md, "Collections"). The histories themselves are read through
// src/db/history.ts.
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Queryable } from '../db/database.ts';
import type { KeysetPage, KeysetRequest } from '../db/paging.ts';
import { notFound } from '../domain/errors.ts';
import type { Api } from './api.ts';
import { type Resource, startPosition } from './hal.ts';
import { singular } from './operationIds.ts';
import type { PageElements } from './presenters/historyPresenter.ts';
import { each, resourceRoutes } from './resourceRoutes.ts';

export interface HistoryRoutes<Item extends { id: string; startDate: Date }> {
  /** The owner's collection, e.g. `/workplaces`. */
  ownerPath: string;
  /** The path segment and embedded name, e.g. `recordedOperatingStates`; its singular names one record. */
  name: string;
  /** The summary of the page route. */
  summary: string;
  schema: TSchema;
  /** The owner's id; 404 when there is no such owner. */
  ownerId: (db: Queryable, id: string) => Promise<string>;
  history: {
    list: (db: Queryable, ownerId: string, request: KeysetRequest) => Promise<KeysetPage<Item>>;
    find: (db: Queryable, ownerId: string, id: string) => Promise<Item | undefined>;
  };
  present: (item: Item, request: FastifyRequest) => Resource;
  /** The page's records also in the SDK's form. */
  elements?: PageElements<Item>;
}

export function registerHistoryRoutes<Item extends { id: string; startDate: Date }>(
  api: Api,
  db: Queryable,
  routes: HistoryRoutes<Item>,
): void {
  const { ownerPath, name, schema } = routes;
  const one = singular(name);
  const history = resourceRoutes(api, {
    path: `${ownerPath}/:id/${name}`,
    itemParam: 'recordId',
    name,
    schema,
    presentPage: each(routes.present),
  });
  history.list({
    summary: routes.summary,
    position: startPosition,
    owner: (at) => routes.ownerId(db, at.id),
    load: (_filter, page, at) => routes.history.list(db, at.owner, page),
    ...(routes.elements ? { elements: routes.elements } : {}),
  });
  history.get({
    summary: `One ${one}`,
    load: async (at) => {
      const ownerId = await routes.ownerId(db, at.id);
      const record = await routes.history.find(db, ownerId, at.itemId);
      if (!record) throw notFound(one, at.itemId);
      return record;
    },
  });
}
