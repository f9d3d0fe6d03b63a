import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { findMasterDataEntries } from '../../db/repositories/masterDataRepository.ts';
import { findOperations } from '../../db/repositories/operationRepository.ts';
import * as repository from '../../db/repositories/staffMemberRepository.ts';
import { listStaffMemberShifts } from '../../db/repositories/staffMemberShiftRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import { notFound } from '../../domain/errors.ts';
import {
  type Absence,
  currentWorkplaceId,
  periodPage,
  type RecordedActivity,
  type StaffMember,
  type StaffMemberShift,
} from '../../domain/staffMembers.ts';
import type { Workplace } from '../../domain/workplaces.ts';
import { loginPeriodsOf } from '../../services/derivedHistoryService.ts';
import * as service from '../../services/staffMemberService.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { pageOf, registerElementsRoute, registerObjectRoute } from '../elementRoutes.ts';
import { link, type Resource, startPosition } from '../hal.ts';
import { registerHistoryRoutes } from '../historyRoutes.ts';
import { masterDataKind } from '../masterDataKinds.ts';
import { operationViewOf } from '../operationViews.ts';
import { STAFF_MEMBERS_PATH } from '../paths.ts';
import { TimePeriodSchema, timePeriod } from '../presenters/historyPresenter.ts';
import { presentStoredEntry } from '../presenters/masterDataPresenter.ts';
import { presentOperation } from '../presenters/operationPresenter.ts';
import {
  openActivitiesOf,
  presentRecordedActivity,
  presentStaffMember,
  presentStaffMemberLocation,
  presentStaffMemberShift,
  STAFF_MEMBER_EMBEDS,
  type StaffMemberEmbed,
} from '../presenters/staffMemberPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import {
  anyOwnerPeriodQuery,
  DateTime,
  dateOf,
  KeysetQuery,
  LinkSchema,
  Nullable,
  PeriodFilters,
  periodOf,
} from '../schemas/common.ts';
import {
  ActivityBody,
  CreateStaffMemberBody,
  RecordedActivitySchema,
  ReplaceStaffMemberBody,
  StaffMemberFilters,
  StaffMemberSchema,
  StaffMemberShiftSchema,
  staffMemberInput,
  WorkplaceItem,
} from '../schemas/staffMemberSchemas.ts';
import { embeddableWorkplaces, presentWorkplaces } from './workplaceRoutes.ts';

const LoginPeriodElement = Type.Object({
  workplaceId: Nullable(Type.String()),
  operationId: Nullable(Type.String()),
  operationPhase: Type.Null({ description: 'not recorded with an activity' }),
  timePeriod: TimePeriodSchema,
  proportion: Type.Number(),
});

const SkillElement = Type.Object({
  skillId: Type.String(),
  description: Type.Null(),
  shortDescription: Type.Null(),
  code: Type.String(),
  skillLevel: Type.Null(),
  startDate: Type.Null(),
  endDate: Type.Null(),
});

const PeriodElement = Type.Object({
  startDate: Type.String({ format: 'date-time' }),
  endDate: Type.String({ format: 'date-time' }),
  duration: Type.Integer(),
});

const periodElement = (period: { startDate: Date; endDate: Date }) => ({
  startDate: period.startDate.toISOString(),
  endDate: period.endDate.toISOString(),
  duration: period.endDate.getTime() - period.startDate.getTime(),
});

const LocationProperties = Type.Object({
  geoCoordinates: Nullable(Type.Object({ latitude: Type.Number(), longitude: Type.Number() })),
});

const tags = ['staffMembers'];

/** Reads the open activities of the page's staff members, and each embed, in one query each. */
const presentStaffMembers =
  (db: ServerDeps['db']) =>
  async (items: StaffMember[], request: FastifyRequest, embed: ReadonlySet<StaffMemberEmbed>) => {
    const open = await openActivitiesOf(db, items);
    const embedded = await embedsOf(db, request, items, open, embed);
    const writable = canWrite(request);
    return items.map((member) =>
      presentStaffMember(member, request.hrefs, writable, open.get(member.id) ?? [], embedded(member)),
    );
  };

const STAFF_MEMBER_SHIFT_EMBEDS = ['staffMember', 'shiftType'] as const;

/**
 * GET /staffMembers/shifts[/{shiftId}]: the shifts staff members work, derived from the shifts of
 * their shift model at their assigned workplaces; the staff members and shift types of a page are
 * read in one query each when embedded.
 */
function registerStaffMemberShifts(api: Api, db: ServerDeps['db']): void {
  const shifts = resourceRoutes(api, {
    path: `${STAFF_MEMBERS_PATH}/shifts`,
    itemParam: 'shiftId',
    schema: StaffMemberShiftSchema,
    embeds: STAFF_MEMBER_SHIFT_EMBEDS,
    presentPage: async (items: StaffMemberShift[], request, embed) => {
      const members = new Map<string, Resource>();
      if (embed.has('staffMember')) {
        const found = await repository.findStaffMembers(db, [
          ...new Set(items.map((item) => item.staffMemberId)),
        ]);
        const presented = await presentStaffMembers(db)(found, request, new Set());
        for (const [index, member] of found.entries()) members.set(member.id, presented[index] as Resource);
      }
      const types = new Map<string, Resource>();
      if (embed.has('shiftType')) {
        const ids = [...new Set(items.flatMap((item) => item.shiftTypeId ?? []))];
        const kind = masterDataKind('shiftTypes');
        for (const entry of await findMasterDataEntries(db, 'shiftTypes', ids))
          types.set(entry.id, presentStoredEntry(kind, entry, request.hrefs, request.locale, new Set()));
      }
      return items.map((item) => presentStaffMemberShift(item, request.hrefs, members, types));
    },
  });
  shifts.list({
    summary: 'The shifts staff members work, latest start first (timestamp pagination on startDate)',
    description:
      "The shifts of each staff member's shift model (shiftId) at their assigned workplaces, the same " +
      'period at several of them once; shifts ending before startDate or starting after endDate are left out.',
    operationId: 'getStaffMembersShifts',
    position: startPosition,
    ...anyOwnerPeriodQuery('staffMemberId'),
    load: (filter, page) => listStaffMemberShifts(db, filter, page),
  });
  shifts.get({
    summary: 'One shift a staff member works',
    operationId: 'getStaffMemberShift',
    load: (at) => service.getStaffMemberShift(db, at.itemId),
  });
}

export function registerStaffMembers(api: Api, { db }: ServerDeps): void {
  const members = resourceRoutes(api, {
    path: STAFF_MEMBERS_PATH,
    schema: StaffMemberSchema,
    embeds: STAFF_MEMBER_EMBEDS,
    /** Reads the open activities of the page's staff members, and each embed, in one query each. */
    presentPage: presentStaffMembers(db),
    texts: { db, table: null },
  });
  members.list({
    summary: 'List staff members, ordered by staff number',
    filters: StaffMemberFilters,
    load: (filter, page) => repository.listStaffMembers(db, filter, page),
  });
  members.items(db, {
    input: staffMemberInput,
    get: { run: service.getStaffMember },
    create: {
      summary: 'Create a staff member (emits STAFF_MEMBER_CREATED)',
      body: CreateStaffMemberBody,
      run: service.createStaffMember,
    },
    replace: {
      summary: 'Replace a staff member (emits STAFF_MEMBER_UPDATED when anything changes)',
      body: ReplaceStaffMemberBody,
      run: service.replaceStaffMember,
    },
    remove: {
      summary: 'Delete a staff member with its activity history (emits STAFF_MEMBER_DELETED)',
      run: service.deleteStaffMember,
    },
  });

  resourceRoutes(api, {
    path: `${STAFF_MEMBERS_PATH}/:id/assignedWorkplaces`,
    name: 'workplaces',
    schema: WorkplaceItem,
    presentPage: (workplaces: Workplace[], request) => presentWorkplaces(db, request, workplaces),
  }).list({
    summary: 'The workplaces the staff member is assigned to, in assignment order',
    owner: async (at) => (await service.getStaffMember(db, at.id)).id,
    load: async (_filter, page, at) => {
      const ids = await repository.listAssignedWorkplaceIds(db, at.owner, page);
      // One read for the page, shown in the assignment order; a workplace gone since is 404 as before.
      const byId = new Map(
        (await findWorkplaces(db, ids.items)).map((workplace) => [workplace.id, workplace]),
      );
      const items = ids.items.map((workplaceId) => {
        const workplace = byId.get(workplaceId);
        if (!workplace) throw notFound('workplace', workplaceId);
        return workplace;
      });
      return { items, total: ids.total };
    },
  });

  registerRoute(api, {
    method: 'POST',
    path: `${STAFF_MEMBERS_PATH}/:id/activities`,
    tags,
    summary: 'Record an activity on an operation (emits STAFF_MEMBER_ACTIVITY_CHANGED)',
    description:
      'STARTED opens a recorded activity (201, Location); INTERRUPTED and FINISHED close the open one ' +
      'on that operation (200). Not allowed now: 400 INVALID_TRANSITION.',
    body: ActivityBody,
    response: { 200: RecordedActivitySchema, 201: RecordedActivitySchema },
    errors: [404, 415],
    handler: async (request, reply) => {
      const { operationId, workplaceId, activity } = request.body;
      const { record, created } = await service.recordActivity(db, request.params.id, {
        operationId,
        workplaceId: workplaceId ?? null,
        activity,
      });
      const representation = presentRecordedActivity(record, request.hrefs);
      if (!created) return representation;
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  });

  registerElementsRoute(api, {
    tags,
    path: `${STAFF_MEMBERS_PATH}/:id/recordedLoginPeriods`,
    operationId: 'getStaffMemberRecordedLoginPeriods',
    summary: 'Periods the staff member was signed on to an operation (its activities), newest first',
    description:
      'One period per recorded activity, from STARTED to INTERRUPTED or FINISHED (endDate null while open); ' +
      'proportion 1/n, n the periods open when it started. Periods overlapping startDate/endDate.',
    filters: PeriodFilters,
    element: LoginPeriodElement,
    load: async (id, filters, page) => pageOf(await loginPeriodsOf(db, id, periodOf(filters)), page),
    present: (period) => ({
      workplaceId: period.workplaceId,
      operationId: period.operationId,
      operationPhase: null,
      timePeriod: timePeriod(period),
      proportion: period.proportion,
    }),
  });

  registerElementsRoute(api, {
    tags,
    path: `${STAFF_MEMBERS_PATH}/:id/skills`,
    operationId: 'getStaffMemberSkills',
    summary: "The staff member's skills: their qualifications as stored, in the stored order",
    description:
      'skillId and code are the qualification; description, shortDescription, skillLevel, startDate and ' +
      'endDate are null (the bridge stores none of them).',
    element: SkillElement,
    load: async (id, _filters, page) => pageOf((await service.getStaffMember(db, id)).qualifications, page),
    present: (qualification) => ({
      skillId: qualification,
      description: null,
      shortDescription: null,
      code: qualification,
      skillLevel: null,
      startDate: null,
      endDate: null,
    }),
  });

  registerWorkingTimes(api, db);
  registerStaffMemberShifts(api, db);

  registerElementsRoute(api, {
    tags,
    path: `${STAFF_MEMBERS_PATH}/scheduledWorkingTimes`,
    operationId: 'getStaffMembersScheduledWorkingTimes',
    summary: 'The scheduled working time of every staff member, by staff number',
    description:
      'One element per staff member: scheduledWorkingTimes as /staffMembers/{id}/scheduledWorkingTimes ' +
      'gives them (all of them, newest first) for startDate/endDate.',
    filters: PeriodFilters,
    element: Type.Object({ staffMemberId: Type.String(), scheduledWorkingTimes: Type.Array(PeriodElement) }),
    load: (_id, filters, page) => service.listScheduledWorkingTimes(db, page, periodOf(filters)),
    present: (element) => ({
      staffMemberId: element.staffMemberId,
      scheduledWorkingTimes: element.periods.map(periodElement),
    }),
  });

  registerObjectRoute(api, {
    tags,
    path: `${STAFF_MEMBERS_PATH}/:id/location`,
    operationId: 'getStaffMemberLocation',
    summary: 'Where the staff member is: the location of the workplace they are signed on to',
    description:
      'The workplace of their latest open activity; geoCoordinates null while they are signed on nowhere ' +
      'or that workplace has none.',
    properties: LocationProperties,
    load: async (id, _query, request) => {
      const { member, workplace } = await service.getStaffMemberLocation(db, id);
      const location = presentStaffMemberLocation(member.id, workplace, request.hrefs);
      return { properties: location.properties, links: location._links };
    },
  });

  registerHistoryRoutes(api, db, {
    ownerPath: STAFF_MEMBERS_PATH,
    name: 'recordedActivities',
    summary: 'History of activities, newest first by start (timestamp pagination)',
    schema: RecordedActivitySchema,
    ownerId: async (tx, id) => (await service.getStaffMember(tx, id)).id,
    history: { list: repository.listActivities, find: repository.findActivity },
    present: (record, request) => presentRecordedActivity(record, request.hrefs),
  });
}

/** The paging parameters of a timestamp-mode page without identifiers (limit and its default as everywhere). */
const { limit: Limit, paginationDirection: Direction, paginationTimestamp: Timestamp } = KeysetQuery;

const Position = Nullable(Type.Object({ timestamp: DateTime, paginationTimestamp: DateTime }));

interface Period {
  startDate: Date;
  endDate: Date;
}

/**
 * GET /staffMembers/{id}/scheduledWorkingTimes and /absenceTimes: a member's periods newest first
 * in timestamp mode, as the SDK asks for them (limit, paginationDirection, paginationTimestamp); a
 * period is placed by its start, so positions carry no identifier.
 */
function registerPeriods<P extends Period>(
  api: Api,
  route: {
    name: string;
    operationId: string;
    summary: string;
    description: string;
    element: TSchema;
    load: (id: string, period: ReturnType<typeof periodOf>) => Promise<P[]>;
    present: (period: P) => unknown;
    /** Links beyond paging the answer carries, e.g. to the staff member. */
    links?: (id: string, request: FastifyRequest) => Record<string, unknown>;
  },
): void {
  registerRoute(api, {
    method: 'GET',
    path: `${STAFF_MEMBERS_PATH}/:id/${route.name}`,
    tags,
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    querystring: Type.Object(
      { ...PeriodFilters, limit: Limit, paginationDirection: Direction, paginationTimestamp: Timestamp },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({
        properties: Type.Object({ elements: Type.Array(route.element) }),
        pagination: Type.Object({
          offset: Type.Null(),
          total: Type.Integer(),
          count: Type.Integer(),
          limit: Type.Integer(),
          firstIdentifier: Position,
          lastIdentifier: Position,
        }),
        _links: Type.Record(Type.String(), LinkSchema),
      }),
    },
    errors: [404],
    handler: async (request) => {
      const { id } = request.params;
      const { startDate, endDate, limit = 100, paginationDirection, paginationTimestamp } = request.query;
      const periods = await route.load(id, periodOf({ startDate, endDate }));
      const asked = {
        limit,
        direction: paginationDirection ?? 'NEXT',
        timestamp: dateOf(paginationTimestamp),
      };
      const page = periodPage(periods, asked);
      const path = `${STAFF_MEMBERS_PATH}/${id}/${route.name}`;
      const at = (query: Record<string, string | number | undefined>) =>
        link(request.hrefs.api(path, { startDate, endDate, limit, ...query }));
      const position = (date: Date | undefined) =>
        date === undefined
          ? null
          : { timestamp: date.toISOString(), paginationTimestamp: date.toISOString() };
      const first = page.items[0]?.startDate;
      const last = page.items.at(-1)?.startDate;
      return {
        properties: {
          elements: page.items.map(route.present),
        },
        pagination: {
          offset: null,
          total: periods.length,
          count: page.items.length,
          limit,
          firstIdentifier: position(first),
          lastIdentifier: position(last),
        },
        _links: {
          self: at({ paginationDirection, paginationTimestamp }),
          first: at({ paginationDirection: 'NEXT' }),
          last: at({ paginationDirection: 'PREVIOUS' }),
          ...(page.hasOlder && last
            ? { next: at({ paginationDirection: 'NEXT', paginationTimestamp: last.toISOString() }) }
            : {}),
          ...(page.hasNewer && first
            ? {
                previous: at({ paginationDirection: 'PREVIOUS', paginationTimestamp: first.toISOString() }),
                prev: at({ paginationDirection: 'PREVIOUS', paginationTimestamp: first.toISOString() }),
              }
            : {}),
          ...route.links?.(id, request),
        },
      };
    },
  });
}

function registerWorkingTimes(api: Api, db: ServerDeps['db']): void {
  registerPeriods(api, {
    name: 'scheduledWorkingTimes',
    operationId: 'getStaffMemberScheduledWorkingTimes',
    summary: "The staff member's scheduled working time, newest first (timestamp pagination)",
    description:
      'The shifts of their shift model (shiftId) at their assigned workplaces, joined where they overlap, ' +
      'less their absences; periods ending before startDate or starting after endDate are left out.',
    element: PeriodElement,
    load: (id, period) => service.getScheduledWorkingTimes(db, id, period),
    present: periodElement,
  });
  registerPeriods(api, {
    name: 'absenceTimes',
    operationId: 'getStaffMemberAbsenceTimes',
    summary: "The staff member's absences, newest first (timestamp pagination)",
    description:
      'Their stored absences (the absences property) with their reason as given; absences ending before ' +
      'startDate or starting after endDate are left out.',
    element: Type.Object({ timePeriod: PeriodElement, reason: Nullable(Type.String()) }),
    load: (id, period) => service.getAbsenceTimes(db, id, period),
    present: (absence: Absence) => ({ timePeriod: periodElement(absence), reason: absence.reason }),
    links: (id, request) => ({
      staffMember: link(request.hrefs.api(`${STAFF_MEMBERS_PATH}/${id}`)),
    }),
  });
}

/**
 * The embeds a page of staff members asks for, read in one query each, as a function giving a
 * member's `_embedded`: the operations of their open activities, their assigned workplaces (in
 * assignment order) and their location.
 */
async function embedsOf(
  db: ServerDeps['db'],
  request: FastifyRequest,
  members: readonly StaffMember[],
  open: ReadonlyMap<string, readonly RecordedActivity[]>,
  embed: ReadonlySet<StaffMemberEmbed>,
): Promise<(member: StaffMember) => Record<string, unknown>> {
  const openOf = (member: StaffMember) => open.get(member.id) ?? [];
  const operations = new Map<string, Resource>();
  if (embed.has('currentlyExecutedOperations')) {
    const ids = members.flatMap((member) => openOf(member).flatMap((record) => record.operationId ?? []));
    const found = await findOperations(db, [...new Set(ids)]);
    const view = await operationViewOf(db, request, found);
    for (const operation of found) operations.set(operation.id, presentOperation(operation, view));
  }
  const assigned = embed.has('assignedWorkplaces')
    ? await embeddableWorkplaces(
        db,
        request,
        members.flatMap((member) => member.assignedWorkplaceIds),
      )
    : new Map<string, Resource>();
  const current = new Map<string, Workplace>();
  if (embed.has('location')) {
    const ids = members.flatMap((member) => currentWorkplaceId(openOf(member)) ?? []);
    for (const workplace of await findWorkplaces(db, [...new Set(ids)])) current.set(workplace.id, workplace);
  }
  return (member) => {
    const embedded: Record<string, unknown> = {};
    if (embed.has('currentlyExecutedOperations')) {
      const ids = new Set(openOf(member).flatMap((record) => record.operationId ?? []));
      embedded.currentlyExecutedOperations = [...ids].flatMap((id) => operations.get(id) ?? []);
    }
    if (embed.has('assignedWorkplaces'))
      embedded.assignedWorkplaces = member.assignedWorkplaceIds.flatMap((id) => assigned.get(id) ?? []);
    if (embed.has('location')) {
      const workplace = current.get(currentWorkplaceId(openOf(member)) ?? '') ?? null;
      embedded.location = presentStaffMemberLocation(member.id, workplace, request.hrefs);
    }
    return embedded;
  };
}
