// The two routes of a history (the recorded operating states of a workplace, phases of an
// operation, activities of a staff member): a page in timestamp mode on startDate, newest first,
// and one record. The histories themselves are read through src/db/history.ts.
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Queryable } from '../db/database.ts';
import type { KeysetPage, KeysetRequest } from '../db/paging.ts';
import { notFound } from '../domain/errors.ts';
import type { Api } from './api.ts';
import { keysetCollection, type Resource, startPosition } from './hal.ts';
import {
  errorResponses,
  IdParams,
  KeysetCollection,
  KeysetQuery,
  keysetPosition,
  pagingAsked,
} from './schemas/common.ts';

export interface HistoryRoutes<Item extends { id: string; startDate: Date }> {
  tags: string[];
  /** The owner's collection, e.g. `/workplaces`. */
  ownerPath: string;
  /** The history's path segment and embedded name, e.g. `recordedOperatingStates`. */
  name: string;
  /** What one record is called in summaries and 404 messages, e.g. `recordedOperatingState`. */
  singular: string;
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
}

export function registerHistoryRoutes<Item extends { id: string; startDate: Date }>(
  api: Api,
  db: Queryable,
  routes: HistoryRoutes<Item>,
): void {
  const { tags, ownerPath, name, schema } = routes;
  api.get(
    `${ownerPath}/:id/${name}`,
    {
      schema: {
        tags,
        summary: routes.summary,
        params: IdParams,
        querystring: Type.Object(KeysetQuery, { additionalProperties: false }),
        response: { 200: KeysetCollection(name, schema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const ownerId = await routes.ownerId(db, request.params.id);
      const page = await routes.history.list(db, ownerId, keysetPosition(request.query));
      return keysetCollection(
        { hrefs: request.hrefs, path: `${ownerPath}/${ownerId}/${name}`, name, query: {} },
        page.items.map((item) => routes.present(item, request)),
        page,
        pagingAsked(request.query),
        startPosition,
      );
    },
  );

  api.get(
    `${ownerPath}/:id/${name}/:recordId`,
    {
      schema: {
        tags,
        summary: `One ${routes.singular}`,
        params: Type.Object({
          id: Type.String({ maxLength: 100 }),
          recordId: Type.String({ maxLength: 100 }),
        }),
        response: { 200: schema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const ownerId = await routes.ownerId(db, request.params.id);
      const record = await routes.history.find(db, ownerId, request.params.recordId);
      if (!record) throw notFound(routes.singular, request.params.recordId);
      return routes.present(record, request);
    },
  );
}
