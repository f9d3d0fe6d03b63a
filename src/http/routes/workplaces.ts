import type { FastifyRequest } from 'fastify';
import { findWorkplaceGroups } from '../../db/repositories/workplaceGroups.ts';
import * as repository from '../../db/repositories/workplaces.ts';
import type { Workplace } from '../../domain/workplaces.ts';
import * as service from '../../services/workplaces.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { registerHistoryRoutes } from '../historyRoutes.ts';
import { WORKPLACES_PATH } from '../paths.ts';
import { viewOf } from '../presenters/view.ts';
import {
  presentRecordedOperatingState,
  presentWorkplace,
  WORKPLACE_EMBEDS,
  type WorkplaceEmbed,
} from '../presenters/workplaces.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import {
  CreateWorkplaceBody,
  RecordedOperatingStateSchema,
  ReplaceWorkplaceBody,
  WorkplaceFilters,
  WorkplaceSchema,
} from '../schemas/workplaces.ts';

const tags = ['workplaces'];

export function registerWorkplaces(api: Api, { db }: ServerDeps): void {
  const workplaces = resourceRoutes(api, {
    tags,
    path: WORKPLACES_PATH,
    name: 'workplaces',
    schema: WorkplaceSchema,
    embeds: WORKPLACE_EMBEDS,
    /** Loads the groups to embed in one query. */
    present: async (items: Workplace[], request: FastifyRequest, embed: ReadonlySet<WorkplaceEmbed>) => {
      const groupIds = new Set<string>();
      for (const workplace of items) {
        if (embed.has('capacityGroup')) groupIds.add(workplace.capacityGroupId);
        if (embed.has('productionLine') && workplace.productionLineId)
          groupIds.add(workplace.productionLineId);
      }
      const groups = new Map(
        (await findWorkplaceGroups(db, [...groupIds])).map((group) => [group.id, group]),
      );
      return items.map((workplace) => presentWorkplace(workplace, { ...viewOf(request, embed), groups }));
    },
  });
  workplaces.list({
    summary: 'List workplaces',
    paging: 'offset',
    filters: WorkplaceFilters,
    load: (filter, page) => repository.listWorkplaces(db, filter, page),
    createRel: 'createWorkplace',
  });
  workplaces.get({ summary: 'One workplace', load: (at) => service.getWorkplace(db, at.id) });
  workplaces.create({
    summary: 'Create a workplace (emits WORKPLACE_CREATED)',
    body: CreateWorkplaceBody,
    run: (body) =>
      service.createWorkplace(db, {
        number: body.number,
        description: body.description ?? null,
        isManualWorkplace: body.isManualWorkplace ?? false,
        capacityGroupId: body.capacityGroupId,
        productionLineId: body.productionLineId ?? null,
        operatingStateId: body.operatingStateId,
      }),
  });
  workplaces.replace({
    summary: 'Replace a workplace (emits WORKPLACE_UPDATED when a characteristic property changes)',
    body: ReplaceWorkplaceBody,
    run: (body, at) =>
      service.replaceWorkplace(db, at.id, {
        number: body.number,
        description: body.description ?? null,
        isManualWorkplace: body.isManualWorkplace ?? false,
        capacityGroupId: body.capacityGroupId,
        productionLineId: body.productionLineId ?? null,
      }),
  });
  workplaces.remove({
    summary: 'Delete a workplace (emits WORKPLACE_DELETED)',
    run: (at) => service.deleteWorkplace(db, at.id),
  });
  workplaces.command({
    path: 'operatingState/:operatingStateId',
    summary: 'Change the operating state (emits WORKPLACE_OPERATING_STATE_CHANGED)',
    description:
      'operatingStateId is the id or the code of an operating state (see /masterData/operatingStates).',
    run: (_body, at) => service.changeOperatingState(db, at.id, at.params.operatingStateId ?? ''),
  });

  registerHistoryRoutes(api, db, {
    tags,
    ownerPath: WORKPLACES_PATH,
    name: 'recordedOperatingStates',
    singular: 'recordedOperatingState',
    summary: 'History of operating states, newest first (timestamp pagination)',
    schema: RecordedOperatingStateSchema,
    ownerId: async (tx, id) => (await service.getWorkplace(tx, id)).id,
    history: { list: repository.listRecordedOperatingStates, find: repository.findRecordedOperatingState },
    present: (record, request) => presentRecordedOperatingState(record, request.hrefs, request.locale),
  });
}
