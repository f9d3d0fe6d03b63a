import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { Queryable } from '../../db/database.ts';
import { findCurrentOperations } from '../../db/repositories/operationRepository.ts';
import { findCurrentStaffMembers } from '../../db/repositories/staffMemberRepository.ts';
import { findWorkplaceGroups } from '../../db/repositories/workplaceGroupRepository.ts';
import * as repository from '../../db/repositories/workplaceRepository.ts';
import { notFound } from '../../domain/errors.ts';
import { hasMachine } from '../../domain/machines.ts';
import { operatingStateById } from '../../domain/masterData.ts';
import type { RecordedOperatingState, Workplace, WorkplaceGroup } from '../../domain/workplaces.ts';
import * as corrections from '../../services/correctionService.ts';
import { machinesOf } from '../../services/machineService.ts';
import * as service from '../../services/workplaceService.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { link, type Resource, startPosition } from '../hal.ts';
import { operationViewOf } from '../operationViews.ts';
import { WORKPLACES_PATH, workplaceLocationPath } from '../paths.ts';
import { operatingStateElements } from '../presenters/historyPresenter.ts';
import { presentMachine } from '../presenters/machinePresenter.ts';
import { operatingStateProperty } from '../presenters/masterDataPresenter.ts';
import { presentOperation } from '../presenters/operationPresenter.ts';
import { openActivitiesOf, presentStaffMember } from '../presenters/staffMemberPresenter.ts';
import { type View, viewOf } from '../presenters/view.ts';
import {
  presentRecordedOperatingState,
  presentWorkplace,
  presentWorkplaceLocation,
  RECORDED_OPERATING_STATE_EMBEDS,
  WORKPLACE_EMBEDS,
  type WorkplaceEmbed,
  type WorkplaceView,
} from '../presenters/workplacePresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { PeriodFilters, periodOf } from '../schemas/common.ts';
import {
  correctionOf,
  MachineStateDetailCorrectionBody,
  OperatingStateCorrectionBody,
} from '../schemas/machineSchemas.ts';
import {
  CreateWorkplaceBody,
  RecordedOperatingStateSchema,
  ReplaceWorkplaceBody,
  WorkplaceFilters,
  WorkplaceLocationBody,
  WorkplaceLocationSchema,
  WorkplaceSchema,
} from '../schemas/workplaceSchemas.ts';
import { singletonRoutes } from '../singletonRoutes.ts';

/** The workplace a POST or PUT body describes: what it leaves out is null (a PUT replaces it all). */
const workplaceBody = (body: Static<typeof ReplaceWorkplaceBody>): service.WorkplaceBody => ({
  number: body.number,
  description: body.description ?? null,
  isManualWorkplace: body.isManualWorkplace,
  workplaceType: body.workplaceType,
  erpContextId: body.erpContextId ?? null,
  capacityGroupId: body.capacityGroupId,
  productionLineId: body.productionLineId ?? null,
});

/** The groups read with these workplaces, by id, and the ids of the others they name. */
function groupsRead(workplaces: readonly Workplace[]) {
  const groups = new Map<string, WorkplaceGroup>();
  for (const workplace of workplaces)
    for (const group of workplace.readGroups ?? []) groups.set(group.id, group);
  const missing = new Set<string>();
  for (const workplace of workplaces) {
    if (!groups.has(workplace.capacityGroupId)) missing.add(workplace.capacityGroupId);
    const line = workplace.productionLineId;
    if (line !== null && !groups.has(line)) missing.add(line);
  }
  return { groups, missing };
}

/**
 * The capacity groups and production lines of these workplaces, by id: those read with the
 * workplaces, the others (a group id changed since) in one query.
 */
async function workplaceGroupsOf(
  db: Queryable,
  workplaces: readonly Workplace[],
): Promise<Map<string, WorkplaceGroup>> {
  const { groups, missing } = groupsRead(workplaces);
  if (missing.size > 0)
    for (const group of await findWorkplaceGroups(db, [...missing])) groups.set(group.id, group);
  return groups;
}

/** Workplaces as other resources embed or list them: each with its groups, one query for all. */
export async function presentWorkplaces(
  db: Queryable,
  request: FastifyRequest,
  workplaces: readonly Workplace[],
): Promise<Resource[]> {
  const view = { ...viewOf(request), groups: await workplaceGroupsOf(db, workplaces) };
  return workplaces.map((workplace) => presentWorkplace(workplace, view));
}

/**
 * The workplaces of these ids presented for embedding, by id (docs/api.md, "Representations
 * (HAL)"); no ids (nothing to embed) reads nothing.
 */
export async function embeddableWorkplaces(
  db: Queryable,
  request: FastifyRequest,
  ids: readonly string[],
): Promise<Map<string, Resource>> {
  if (ids.length === 0) return new Map();
  const found = await repository.findWorkplaces(db, [...new Set(ids)]);
  const presented = await presentWorkplaces(db, request, found);
  return new Map(found.map((workplace, index) => [workplace.id, presented[index] as Resource]));
}

/**
 * A page presenter for items at a workplace that may embed it (devices, machines): the page's
 * workplaces are read in one query, and only when `embed` names `workplace`.
 */
export const withWorkplaces =
  <Item extends { workplaceId: string }, Embed extends string>(
    db: Queryable,
    present: (item: Item, view: View<Embed>, workplace?: Resource) => Resource,
  ) =>
  async (items: Item[], request: FastifyRequest, embed: ReadonlySet<Embed>) => {
    const asked = (embed as ReadonlySet<string>).has('workplace')
      ? items.map((item) => item.workplaceId)
      : [];
    const workplaces = await embeddableWorkplaces(db, request, asked);
    const view = viewOf(request, embed);
    return items.map((item) => present(item, view, workplaces.get(item.workplaceId)));
  };

export function registerWorkplaces(api: Api, { db }: ServerDeps): void {
  /** The current operations and staff members to embed, one query each for the whole page. */
  async function currentOf(items: Workplace[], request: FastifyRequest, embed: ReadonlySet<WorkplaceEmbed>) {
    const ids = items.map((workplace) => workplace.id);
    const operations = new Map<string, Resource[]>();
    const staffMembers = new Map<string, Resource[]>();
    if (embed.has('currentOperations')) {
      const found = await findCurrentOperations(db, ids);
      const view = await operationViewOf(db, request, found);
      for (const operation of found) {
        const at = operation.workplaceId as string;
        operations.set(at, [...(operations.get(at) ?? []), presentOperation(operation, view)]);
      }
    }
    if (embed.has('currentStaffMembers')) {
      const current = await findCurrentStaffMembers(db, ids);
      const open = await openActivitiesOf(
        db,
        current.map(({ member }) => member),
      );
      for (const { workplaceId, member } of current) {
        const presented = presentStaffMember(
          member,
          request.hrefs,
          canWrite(request),
          open.get(member.id) ?? [],
        );
        staffMembers.set(workplaceId, [...(staffMembers.get(workplaceId) ?? []), presented]);
      }
    }
    return { operations, staffMembers };
  }

  /** The machines to embed, presented, by workplace id: one read of the machine states for the page. */
  async function machinesFor(
    items: Workplace[],
    request: FastifyRequest,
    embed: ReadonlySet<WorkplaceEmbed>,
  ) {
    const presented = new Map<string, Resource>();
    if (!embed.has('machine')) return presented;
    const view = viewOf(request);
    for (const machine of await machinesOf(db, items.filter(hasMachine)))
      presented.set(machine.workplaceId, presentMachine(machine, view));
    return presented;
  }

  const workplaces = resourceRoutes(api, {
    path: WORKPLACES_PATH,
    schema: WorkplaceSchema,
    embeds: WORKPLACE_EMBEDS,
    plainJson: true,
    /** Loads the groups the workplaces show (and may embed) in one query. */
    presentPage: (items: Workplace[], request: FastifyRequest, embed: ReadonlySet<WorkplaceEmbed>) => {
      const show = (
        groups: ReadonlyMap<string, WorkplaceGroup>,
        current?: WorkplaceView['current'],
        machines?: WorkplaceView['machines'],
      ) =>
        items.map((workplace) =>
          presentWorkplace(workplace, { ...viewOf(request, embed), groups, current, machines }),
        );
      // The usual read: the groups came with the workplaces and nothing else is embedded. Presented
      // at once, without the promises of the loads below.
      const read = groupsRead(items);
      const loads = ['currentOperations', 'currentStaffMembers', 'machine'] as const;
      if (read.missing.size === 0 && !loads.some((name) => embed.has(name))) return show(read.groups);
      return (async () =>
        show(
          await workplaceGroupsOf(db, items),
          await currentOf(items, request, embed),
          await machinesFor(items, request, embed),
        ))();
    },
    texts: { db, table: 'workplaces' },
  });
  workplaces.list({
    summary: 'List workplaces',
    filters: WorkplaceFilters,
    load: (filter, page) => repository.listWorkplaces(db, filter, page),
    // The shifts of all workplaces, as the real API links them beside the pages.
    links: (request) => ({ shifts: link(request.hrefs.api(`${WORKPLACES_PATH}/shifts`)) }),
  });
  workplaces.get({ load: (at) => service.getWorkplace(db, at.id) });
  workplaces.create({
    summary: 'Create a workplace (emits WORKPLACE_CREATED)',
    body: CreateWorkplaceBody,
    run: (body) =>
      service.createWorkplace(db, { ...workplaceBody(body), operatingStateId: body.operatingStateId }),
  });
  workplaces.replace({
    summary: 'Replace a workplace (emits WORKPLACE_UPDATED when a characteristic property changes)',
    body: ReplaceWorkplaceBody,
    run: (body, at) => service.replaceWorkplace(db, at.id, workplaceBody(body)),
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

  const corrected =
    ' (emits WORKPLACE_RECORDED_OPERATING_STATES_CORRECTED, and WORKPLACE_OPERATING_STATE_CHANGED when it reaches now)';
  const correction =
    'Inserts the period into the history, trimming and splitting the records it overlaps; without endDate ' +
    'it lasts to where the next record starts, or on (see docs/resources/workplaces.md, "Corrections").';
  workplaces.command({
    path: 'recordedOperatingStates/update',
    summary: `Correct the operating-state history${corrected}`,
    description: correction,
    operationId: 'updateRecordedOperatingState',
    body: OperatingStateCorrectionBody,
    run: (body, at) => corrections.correctWorkplaceOperatingStates(db, at.id, correctionOf(body)),
  });
  workplaces.command({
    path: 'machine/recordedMachineStateDetails/update',
    summary: `Correct the machine state details of a period${corrected}`,
    description: `${correction} The period gets the operating state the first detail maps to.`,
    operationId: 'updateRecordedMachineState',
    body: MachineStateDetailCorrectionBody,
    run: (body, at) => corrections.correctMachineStateDetails(db, at.id, correctionOf(body)),
  });

  registerWorkplaceLocation(api, db);

  registerOperatingStateHistory(api, db);
}

/**
 * The operating-state history, newest first (timestamp pagination): filtered to a period and
 * embedding each record's operating state on request, as the real API takes it.
 */
function registerOperatingStateHistory(api: Api, db: ServerDeps['db']): void {
  const history = resourceRoutes(api, {
    path: `${WORKPLACES_PATH}/:id/recordedOperatingStates`,
    itemParam: 'recordId',
    schema: RecordedOperatingStateSchema,
    embeds: RECORDED_OPERATING_STATE_EMBEDS,
    presentPage: (records: RecordedOperatingState[], request, embed) => {
      const view = viewOf(request, embed);
      return records.map((record) => presentRecordedOperatingState(record, view));
    },
  });
  history.list({
    summary: 'History of operating states, newest first (timestamp pagination)',
    description:
      'Records ending before startDate or starting after endDate are left out; an open record lasts on.',
    position: startPosition,
    filters: PeriodFilters,
    owner: async (at) => (await service.getWorkplace(db, at.id)).id,
    load: (filters, page, at) =>
      repository.listRecordedOperatingStatesIn(db, { workplaceId: at.owner, ...periodOf(filters) }, page),
    elements: operatingStateElements((record, request) =>
      operatingStateProperty(operatingStateById(record.operatingStateId), request.locale),
    ),
  });
  history.get({
    summary: 'One recorded operating state',
    load: async (at) => {
      const workplaceId = (await service.getWorkplace(db, at.id)).id;
      const record = await repository.findRecordedOperatingState(db, workplaceId, at.itemId);
      if (!record) throw notFound('recordedOperatingState', at.itemId);
      return record;
    },
  });
}

/** Where a workplace is: read with the workplace, set or cleared by a PUT (no DELETE, as the real API). */
function registerWorkplaceLocation(api: Api, db: ServerDeps['db']): void {
  const location = singletonRoutes(api, {
    tags: ['workplaces'],
    path: workplaceLocationPath(':id'),
    schema: WorkplaceLocationSchema,
    present: (workplace: Workplace, request) => presentWorkplaceLocation(workplace, request.hrefs),
  });
  location.get({
    operationId: 'getWorkplaceLocation',
    summary: 'Where a workplace is (geoCoordinates null when unknown)',
    load: (id) => service.getWorkplace(db, id),
  });
  location.put({
    operationId: 'replaceWorkplaceLocation',
    summary: 'Set or clear where a workplace is (emits WORKPLACE_UPDATED naming location when it changes)',
    body: WorkplaceLocationBody,
    run: (body, id) => service.putWorkplaceLocation(db, id, body.geoCoordinates),
  });
}
