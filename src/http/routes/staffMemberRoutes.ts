import { Type } from 'typebox';
import * as repository from '../../db/repositories/staffMemberRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import { notFound } from '../../domain/errors.ts';
import type { Workplace } from '../../domain/workplaces.ts';
import { loginPeriodsOf } from '../../services/derivedHistoryService.ts';
import * as service from '../../services/staffMemberService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { pageOf, registerElementsRoute } from '../elementRoutes.ts';
import { registerHistoryRoutes } from '../historyRoutes.ts';
import { STAFF_MEMBERS_PATH } from '../paths.ts';
import { TimePeriodSchema, timePeriod } from '../presenters/historyPresenter.ts';
import {
  presentRecordedActivity,
  presentStaffMember,
  STAFF_MEMBER_EMBEDS,
} from '../presenters/staffMemberPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { Nullable, PeriodFilters, periodOf } from '../schemas/common.ts';
import {
  ActivityBody,
  CreateStaffMemberBody,
  RecordedActivitySchema,
  ReplaceStaffMemberBody,
  StaffMemberFilters,
  StaffMemberSchema,
  staffMemberInput,
  WorkplaceItem,
} from '../schemas/staffMemberSchemas.ts';
import { presentWorkplaces } from './workplaceRoutes.ts';

const LoginPeriodElement = Type.Object({
  workplaceId: Nullable(Type.String()),
  operationId: Nullable(Type.String()),
  operationPhase: Type.Null({ description: 'not recorded with an activity' }),
  timePeriod: TimePeriodSchema,
  proportion: Type.Number(),
});

const tags = ['staffMembers'];

export function registerStaffMembers(api: Api, { db }: ServerDeps): void {
  const members = resourceRoutes(api, {
    path: STAFF_MEMBERS_PATH,
    schema: StaffMemberSchema,
    embeds: STAFF_MEMBER_EMBEDS,
    present: presentStaffMember,
    texts: { db, table: null },
  });
  members.list({
    summary: 'List staff members, ordered by staff number',
    filters: StaffMemberFilters,
    load: (filter, page) => repository.listStaffMembers(db, filter, page),
  });
  members.items(db, {
    input: staffMemberInput,
    get: { summary: 'One staff member', run: service.getStaffMember },
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
