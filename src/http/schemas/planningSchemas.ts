// Forecast and planning results, planning scenarios and predicted malfunction scenarios as the API
// shows and takes them (docs/resources/planning.md).
import { type TSchema, Type } from 'typebox';
import type { ResultElement, ResultInput, ShiftAssignmentInput } from '../../domain/planning.ts';
import { Nullable, OperatingStateProperty, optional, optionalText, Resource } from './common.ts';

export const MAX_ELEMENTS = 1000;
const Uuid = Type.String({ format: 'uuid', maxLength: 36 });
const DateTime = Type.String({ format: 'date-time', maxLength: 64 });
const OptionalDate = optional(DateTime);

/** Body fields of a result (docs/resources/planning.md); optional ones left out become null (or false). */
export const resultFields = {
  workplaceId: Uuid,
  startDate: DateTime,
  endDate: DateTime,
  setupStartDate: OptionalDate,
  setupEndDate: OptionalDate,
  processingStartDate: OptionalDate,
  processingEndDate: OptionalDate,
  fixed: Type.Optional(Type.Boolean({ default: false, description: 'The planner must not move it' })),
};

/** A bulk or scenario element: the result fields plus the owner's id. */
export const ElementBody = (ownerField: 'operationId' | 'staffMemberId') =>
  Type.Object({ [ownerField]: Uuid, ...resultFields }, { additionalProperties: false });

export type ResultBody = {
  workplaceId: string;
  startDate: string;
  endDate: string;
  setupStartDate?: string | null;
  setupEndDate?: string | null;
  processingStartDate?: string | null;
  processingEndDate?: string | null;
  fixed?: boolean;
};

const optionalDate = (value: string | null | undefined) => (value == null ? null : new Date(value));

export const toResultInput = (body: ResultBody): ResultInput => ({
  workplaceId: body.workplaceId,
  startDate: new Date(body.startDate),
  endDate: new Date(body.endDate),
  setupStartDate: optionalDate(body.setupStartDate),
  setupEndDate: optionalDate(body.setupEndDate),
  processingStartDate: optionalDate(body.processingStartDate),
  processingEndDate: optionalDate(body.processingEndDate),
  fixed: body.fixed ?? false,
});

export const toElement = (ownerField: string, body: ResultBody): ResultElement => ({
  ...toResultInput(body),
  ownerId: String((body as Record<string, unknown>)[ownerField]),
});

/** The properties of a result or element as the API shows them. */
export const ResultProperties = (ownerField: 'operationId' | 'staffMemberId') =>
  Type.Object({
    [ownerField]: Type.String({ format: 'uuid' }),
    workplaceId: Type.String({ format: 'uuid' }),
    startDate: Type.String({ format: 'date-time' }),
    endDate: Type.String({ format: 'date-time' }),
    setupStartDate: Nullable(Type.String({ format: 'date-time' })),
    setupEndDate: Nullable(Type.String({ format: 'date-time' })),
    processingStartDate: Nullable(Type.String({ format: 'date-time' })),
    processingEndDate: Nullable(Type.String({ format: 'date-time' })),
    fixed: Type.Boolean(),
  });

export const BulkOutcomeSchema = Resource(
  Type.Object({
    created: Type.Integer({ description: 'Results that did not exist before' }),
    updated: Type.Integer({ description: 'Results with a changed property' }),
    unchanged: Type.Integer({ description: 'Results sent exactly as stored' }),
  }),
  'What the bulk update did; _embedded holds the resulting results in the order of the body',
);

const Milliseconds = (description: string) => Type.Integer({ description: `${description}, ms` });
const Rate = (description: string) =>
  Nullable(Type.Number({ description: `${description}; null where its denominator is zero` }));

/** The figures of a result collection over its horizon (docs/resources/planning.md, "Summary"). */
export const ResultSummarySchema = Type.Object({
  startDate: Nullable(Type.String({ format: 'date-time', description: 'Start of the horizon' })),
  endDate: Nullable(Type.String({ format: 'date-time', description: 'End of the horizon' })),
  numberOfWorkplaces: Type.Integer({ description: 'Workplaces with a result in the horizon' }),
  scheduledOperatingTime: Milliseconds('Shift time of those workplaces in the horizon'),
  plannedProcessingTime: Milliseconds('Processing time of the results in the horizon'),
  plannedExecutionTime: Milliseconds('Start to end of the results in the horizon'),
  numberOfPlannedProductionOrders: Type.Integer({
    description: 'Production orders with every operation planned',
  }),
  plannedLeadTime: Milliseconds('Sum over those orders of their first start to their last end'),
  minimumLeadTimeWithSetup: Milliseconds('Sum over those orders of their operations back to back'),
  numberOfPartiallyPlannedProductionOrders: Type.Integer({
    description: 'Production orders with only some operations planned',
  }),
  adherenceToDeliveryDates: Rate('Share of the planned orders with a delivery date that end by it'),
  schedulingEfficiency: Rate('minimumLeadTimeWithSetup / plannedLeadTime'),
  occupancyRate: Rate('plannedExecutionTime / scheduledOperatingTime'),
  setupReduction: Rate('1 - setup time / plannedExecutionTime'),
});

/** The figures of a staff member planning scenario (docs/resources/planning.md). */
const StaffScenarioSummarySchema = Type.Object({
  startDate: Nullable(Type.String({ format: 'date-time', description: 'First start of its elements' })),
  endDate: Nullable(Type.String({ format: 'date-time', description: 'Last end of its elements' })),
  operationsPlanningScenarioId: Type.Null({ description: 'Not recorded' }),
  numberOfPlannedStaffMembers: Type.Integer(),
  scheduledWorkingTime: Type.Null({ description: 'Not recorded' }),
  occupancyTime: Milliseconds('Start to end of its elements'),
  occupancyRate: Type.Null({ description: 'Not recorded (needs the scheduled working time)' }),
  numberOfWorkplaces: Type.Integer(),
  requirementOfStaffHours: Type.Null({ description: 'Not recorded' }),
  coverageOfPersonnelRequirements: Type.Null({ description: 'Not recorded' }),
});

/**
 * A planning scenario of operations or staff members: the real API's properties (its figures over
 * the horizon of its elements), then the service's own; an operation scenario also shows its
 * elements as `assignments`, their name before the real API's.
 */
export const PlanningScenarioSchema = (ownerField: 'operationId' | 'staffMemberId') => {
  const operation = ownerField === 'operationId';
  const elements = Type.Array(
    operation
      ? ResultProperties(ownerField)
      : Type.Object({
          ...ResultProperties(ownerField).properties,
          staffMemberShiftId: Type.Null({ description: 'Not recorded' }),
          skillId: Type.Null({ description: 'Not recorded' }),
          workplaceShiftId: Nullable(
            Type.String({ format: 'uuid', description: "The workplace's shift running at startDate" }),
          ),
          capacity: Type.Null({ description: 'Not recorded' }),
        }),
  );
  return Resource(
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      creator: Nullable(Type.String({ description: 'The client that created it' })),
      creationDate: Type.String({ format: 'date-time' }),
      ...(operation ? ResultSummarySchema.properties : StaffScenarioSummarySchema.properties),
      elements,
      name: Nullable(Type.String()),
      description: Nullable(Type.String()),
      ...(operation ? { assignments: elements } : {}),
      createdAt: Type.String({ format: 'date-time' }),
      ...(operation ? { obsoleteSince: Nullable(Type.String({ format: 'date-time' })) } : {}),
    }),
    `A ${operation ? 'operation' : 'staff member'} planning scenario`,
  );
};

export const PlanningScenarioBody = (
  list: 'assignments' | 'elements',
  ownerField: 'operationId' | 'staffMemberId',
) =>
  Type.Object(
    {
      name: optionalText(200),
      description: optionalText(2000),
      [list]: Type.Array(ElementBody(ownerField), { maxItems: MAX_ELEMENTS }),
    },
    { additionalProperties: false },
  );

export const MalfunctionSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    creator: Nullable(Type.String({ description: 'The client that created it' })),
    creationDate: Type.String({ format: 'date-time' }),
    workplaceId: Type.String({ format: 'uuid' }),
    startDate: Type.String({ format: 'date-time' }),
    endDate: Type.String({ format: 'date-time' }),
    elements: Type.Array(
      Type.Object({
        workplaceId: Type.String({ format: 'uuid' }),
        operatingStateId: Nullable(Type.String()),
        prewarningDate: Type.String({
          format: 'date-time',
          description: 'The start of the predicted period',
        }),
        criticalDate: Type.Null({
          description: 'Not predicted: one period and one probability do not say it',
        }),
      }),
      { description: 'The imminent malfunctions: the prediction at its workplace' },
    ),
    probability: Type.Number(),
    operatingState: Nullable(OperatingStateProperty),
    description: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    obsoleteSince: Nullable(Type.String({ format: 'date-time' })),
  }),
  'A predicted malfunction of a workplace',
);

export const MalfunctionBody = Type.Object(
  {
    workplaceId: Uuid,
    startDate: DateTime,
    endDate: DateTime,
    probability: Type.Number({ minimum: 0, maximum: 1 }),
    operatingStateId: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: 'A DOWNTIME operating state (id or code)' })),
    ),
    description: optionalText(2000),
  },
  { additionalProperties: false },
);

/** One planning scenario as a page of its elements: the figures cover every element. */
/** A single read whose elements come in pages, as the real API reads a scenario. */
const PagedElements = (properties: TSchema, description: string) =>
  Type.Object(
    {
      properties,
      pagination: Type.Object({
        limit: Type.Integer(),
        count: Type.Integer(),
        offset: Type.Integer(),
        total: Type.Integer(),
        firstIdentifier: Type.Null(),
        lastIdentifier: Type.Null(),
      }),
      _links: Type.Record(
        Type.String(),
        Type.Object({ href: Type.String(), method: Type.String(), embeddable: Type.Boolean() }),
      ),
    },
    { description },
  );

export const PagedScenarioSchema = (ownerField: 'operationId' | 'staffMemberId') =>
  PagedElements(
    PlanningScenarioSchema(ownerField).properties.properties,
    `A ${ownerField === 'operationId' ? 'operation' : 'staff member'} planning scenario, its elements paged`,
  );

export const PagedMalfunctionSchema = PagedElements(
  MalfunctionSchema.properties.properties,
  'A predicted malfunction scenario, its imminent malfunctions paged',
);

/** A staff member's assignment to a workplace in the real API's form. */
const StaffAssignment = (staffMemberShiftId: TSchema) =>
  Type.Object({
    staffMemberId: Type.String({ format: 'uuid' }),
    staffMemberShiftId,
    workplaceId: Type.String({ format: 'uuid' }),
    skillId: Type.Null({ description: 'Not recorded' }),
    workplaceShiftId: Nullable(
      Type.String({ format: 'uuid', description: "The workplace's shift running at startDate" }),
    ),
    startDate: Type.String({ format: 'date-time' }),
    endDate: Type.String({ format: 'date-time' }),
    capacity: Type.Null({ description: 'Not recorded' }),
    fixed: Type.Boolean(),
  });

/** The staff member planning results of a period: its figures and the page's results. */
export const StaffResultsSummarySchema = Type.Object({
  ...StaffScenarioSummarySchema.properties,
  elements: Type.Array(StaffAssignment(Type.Null({ description: 'Not recorded' }))),
});

/** A staff member's planning result of one shift: the part of their dispatching in it. */
export const ShiftResultSchema = Resource(
  Type.Object({
    elements: Type.Array(StaffAssignment(Type.String({ format: 'uuid', description: 'The shift' })), {
      maxItems: 1,
    }),
  }),
  "A staff member's planning result of one of their shifts",
  true,
);

/**
 * PUT body: the shift's assignment (none: no dispatching in the shift), as the GET shows it; what
 * the service derives may come back, but only as it would derive it.
 */
export const ShiftResultBody = Type.Object(
  {
    elements: Type.Array(
      Type.Object(
        {
          staffMemberId: Uuid,
          ...resultFields,
          staffMemberShiftId: Type.Optional(
            Nullable(Type.String({ format: 'uuid', maxLength: 36, description: 'The shift of the path' })),
          ),
          workplaceShiftId: Type.Optional(
            Nullable(
              Type.String({
                format: 'uuid',
                maxLength: 36,
                description: "Derived: the workplace's shift running at startDate",
              }),
            ),
          ),
          skillId: Type.Optional(Type.Null({ description: 'Not planned by the service' })),
          capacity: Type.Optional(Type.Null({ description: 'Not planned by the service' })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 1, description: 'At most one: a staff member has one dispatching' },
    ),
  },
  { additionalProperties: false },
);

export type ShiftAssignmentBody = ResultBody & {
  staffMemberId: string;
  staffMemberShiftId?: string | null;
  workplaceShiftId?: string | null;
};

export const toShiftAssignment = (body: ShiftAssignmentBody): ShiftAssignmentInput => ({
  element: toElement('staffMemberId', body),
  staffMemberShiftId: body.staffMemberShiftId ?? null,
  workplaceShiftId: body.workplaceShiftId ?? null,
});
