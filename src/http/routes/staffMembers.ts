import { Type } from 'typebox';
import * as repository from '../../db/repositories/staffMembers.ts';
import { findWorkplaces } from '../../db/repositories/workplaces.ts';
import { notFound } from '../../domain/errors.ts';
import { STAFF_ACTIVITIES, type StaffMemberInput } from '../../domain/staffMembers.ts';
import * as service from '../../services/staffMembers.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { offsetCollection } from '../hal.ts';
import { registerHistoryRoutes } from '../historyRoutes.ts';
import { STAFF_MEMBERS_PATH } from '../paths.ts';
import { presentRecordedActivity, presentStaffMember } from '../presenters/staffMembers.ts';
import { presentWorkplace } from '../presenters/workplaces.ts';
import {
  checkBodyId,
  errorResponses,
  IdParams,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  Resource,
} from '../schemas/common.ts';

const Uuid = Type.String({ format: 'uuid' });
const DateTime = Type.String({ format: 'date-time' });

const AbsenceProperty = Type.Object({
  startDate: DateTime,
  endDate: DateTime,
  reason: Nullable(Type.String()),
});

const StaffMemberSchema = Resource(
  Type.Object({
    id: Uuid,
    staffNumber: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Nullable(Type.String()),
    qualifications: Type.Array(Type.String()),
    assignedWorkplaceIds: Type.Array(Uuid),
    shiftId: Nullable(Type.String()),
    absences: Type.Array(AbsenceProperty),
  }),
  'Staff member (production personnel)',
);

const RecordedActivitySchema = Resource(
  Type.Object({
    id: Uuid,
    staffMemberId: Uuid,
    operationId: Nullable(Uuid),
    workplaceId: Nullable(Uuid),
    activity: Type.Enum([...STAFF_ACTIVITIES], { description: 'STARTED while open, then how it ended' }),
    startDate: DateTime,
    endDate: Nullable(DateTime),
  }),
  'A period of work of a staff member on an operation',
);

// The workplace representation as the workplaces routes serve it (embeds aside).
const WorkplaceItem = Resource(Type.Record(Type.String(), Type.Unknown()), 'Workplace');

const writable = {
  staffNumber: Type.String({ minLength: 1, maxLength: 100 }),
  firstName: Type.String({ minLength: 1, maxLength: 200 }),
  lastName: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  qualifications: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      uniqueItems: true,
      description: 'Skills, e.g. qualification codes',
    }),
  ),
  assignedWorkplaceIds: Type.Optional(Type.Array(Uuid, { maxItems: 100, uniqueItems: true })),
  shiftId: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  absences: Type.Optional(
    Type.Array(
      Type.Object(
        {
          startDate: DateTime,
          endDate: Type.String({ format: 'date-time', description: 'Not before startDate' }),
          reason: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
        },
        { additionalProperties: false },
      ),
      { maxItems: 100 },
    ),
  ),
};
const CreateBody = Type.Object(writable, { additionalProperties: false });
const ReplaceBody = Type.Object(
  { id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })), ...writable },
  { additionalProperties: false },
);
type Body = Type.Static<typeof CreateBody>;

const ActivityBody = Type.Object(
  {
    operationId: Type.String({ maxLength: 100 }),
    workplaceId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 100,
          description: 'Required for STARTED; when closing, must be the open activity’s workplace',
        }),
      ),
    ),
    activity: Type.Enum([...STAFF_ACTIVITIES]),
  },
  { additionalProperties: false },
);

const _RecordParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  recordId: Type.String({ maxLength: 100 }),
});
const tags = ['staffMembers'];

/** PUT is a full replacement: what is missing becomes null or empty. */
const toInput = (body: Body): StaffMemberInput => ({
  staffNumber: body.staffNumber,
  firstName: body.firstName,
  lastName: body.lastName,
  email: body.email ?? null,
  qualifications: body.qualifications ?? [],
  assignedWorkplaceIds: body.assignedWorkplaceIds ?? [],
  shiftId: body.shiftId ?? null,
  absences: (body.absences ?? []).map((absence) => ({
    startDate: new Date(absence.startDate),
    endDate: new Date(absence.endDate),
    reason: absence.reason ?? null,
  })),
});

export function registerStaffMembers(api: Api, { db }: ServerDeps): void {
  api.get(
    STAFF_MEMBERS_PATH,
    {
      schema: {
        tags,
        summary: 'List staff members, ordered by staff number',
        querystring: Type.Object(
          {
            ...OffsetQuery,
            staffNumber: Type.Optional(Type.String({ maxLength: 100 })),
            workplaceId: Type.Optional(Type.String({ format: 'uuid', description: 'Assigned workplace' })),
            qualification: Type.Optional(Type.String({ maxLength: 100 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: OffsetCollection('staffMembers', StaffMemberSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const { staffNumber, workplaceId, qualification } = request.query;
      const { limit, offset } = offsetPage(request.query);
      const page = await repository.listStaffMembers(
        db,
        { staffNumber, workplaceId, qualification },
        { limit, offset },
      );
      const write = canWrite(request);
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: STAFF_MEMBERS_PATH,
          name: 'staffMembers',
          query: { staffNumber, workplaceId, qualification },
          create: write
            ? { rel: 'createStaffMember', href: request.hrefs.api(STAFF_MEMBERS_PATH) }
            : undefined,
        },
        page.items.map((member) => presentStaffMember(member, request.hrefs, write)),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${STAFF_MEMBERS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One staff member',
        params: IdParams,
        response: { 200: StaffMemberSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentStaffMember(
        await service.getStaffMember(db, request.params.id),
        request.hrefs,
        canWrite(request),
      ),
  );

  api.post(
    STAFF_MEMBERS_PATH,
    {
      schema: {
        tags,
        summary: 'Create a staff member (emits STAFF_MEMBER_CREATED)',
        body: CreateBody,
        response: { 201: StaffMemberSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const member = await service.createStaffMember(db, toInput(request.body));
      const representation = presentStaffMember(member, request.hrefs, canWrite(request));
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );

  api.put(
    `${STAFF_MEMBERS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Replace a staff member (emits STAFF_MEMBER_UPDATED when anything changes)',
        params: IdParams,
        body: ReplaceBody,
        response: { 200: StaffMemberSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      const { id, ...body } = request.body;
      checkBodyId(id, request.params.id);
      const member = await service.replaceStaffMember(db, request.params.id, toInput(body));
      return presentStaffMember(member, request.hrefs, canWrite(request));
    },
  );

  api.delete(
    `${STAFF_MEMBERS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a staff member with its activity history (emits STAFF_MEMBER_DELETED)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteStaffMember(db, request.params.id);
      return reply.code(204).send();
    },
  );

  api.get(
    `${STAFF_MEMBERS_PATH}/:id/assignedWorkplaces`,
    {
      schema: {
        tags,
        summary: 'The workplaces the staff member is assigned to, in assignment order',
        params: IdParams,
        querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
        response: { 200: OffsetCollection('workplaces', WorkplaceItem), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { limit, offset } = offsetPage(request.query);
      const member = await service.getStaffMember(db, request.params.id);
      const page = await repository.listAssignedWorkplaceIds(db, member.id, { limit, offset });
      const view = {
        hrefs: request.hrefs,
        locale: request.locale,
        canWrite: canWrite(request),
        embed: new Set<never>(),
        groups: new Map(),
      };
      // One read for the page, shown in the assignment order; a workplace gone since is 404 as before.
      const byId = new Map(
        (await findWorkplaces(db, page.items)).map((workplace) => [workplace.id, workplace]),
      );
      const workplaces = page.items.map((workplaceId) => {
        const workplace = byId.get(workplaceId);
        if (!workplace) throw notFound('workplace', workplaceId);
        return workplace;
      });
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: `${STAFF_MEMBERS_PATH}/${member.id}/assignedWorkplaces`,
          name: 'workplaces',
          query: {},
        },
        workplaces.map((workplace) => presentWorkplace(workplace, view)),
        page,
        { limit, offset },
      );
    },
  );

  api.post(
    `${STAFF_MEMBERS_PATH}/:id/activities`,
    {
      schema: {
        tags,
        summary: 'Record an activity on an operation (emits STAFF_MEMBER_ACTIVITY_CHANGED)',
        description:
          'STARTED opens a recorded activity (201, Location); INTERRUPTED and FINISHED close the open one ' +
          'on that operation (200). Not allowed now: 400 INVALID_TRANSITION.',
        params: IdParams,
        body: ActivityBody,
        response: {
          200: RecordedActivitySchema,
          201: RecordedActivitySchema,
          ...errorResponses(404, 415),
        },
      },
    },
    async (request, reply) => {
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
  );

  registerHistoryRoutes(api, db, {
    tags,
    ownerPath: STAFF_MEMBERS_PATH,
    name: 'recordedActivities',
    singular: 'recordedActivity',
    summary: 'History of activities, newest first by start (timestamp pagination)',
    schema: RecordedActivitySchema,
    ownerId: async (tx, id) => (await service.getStaffMember(tx, id)).id,
    history: { list: repository.listActivities, find: repository.findActivity },
    present: (record, request) => presentRecordedActivity(record, request.hrefs),
  });
}
