// Planning and forecast results and the scenarios computed beside them (docs/resources/planning.md).
import { AppError } from './errors.ts';
import { catalogueEvent, type NewEvent, type ObjectType } from './events.ts';
import type { OperatingState, WorkplaceStateId } from './masterData.ts';
import type { StaffMemberShift } from './staffMembers.ts';

/** What a result or scenario element says: where and when its owner is planned. */
export interface ResultInput {
  workplaceId: string;
  startDate: Date;
  endDate: Date;
  setupStartDate: Date | null;
  setupEndDate: Date | null;
  processingStartDate: Date | null;
  processingEndDate: Date | null;
  fixed: boolean;
}

/** A stored result: one per owner (operation or staff member) and kind. */
export interface Result extends ResultInput {
  ownerId: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The three kinds of results share one shape and one set of rules; they differ in what owns
 * them, where they are stored and which events announce their changes.
 */
export interface ResultKind {
  /** Resource name in messages and 404s. */
  resource: 'forecastResult' | 'planningResult';
  /** Event type prefix: `<prefix>_CREATED` and so on. */
  eventPrefix: string;
  objectType: ObjectType;
  /** The element field naming the owner. */
  ownerField: 'operationId' | 'staffMemberId';
  ownerTable: 'operations' | 'staff_members';
  ownerResource: 'operation' | 'staffMember';
  table: 'operation_forecast_results' | 'operation_planning_results' | 'staff_member_planning_results';
}

export const FORECAST_RESULTS: ResultKind = {
  resource: 'forecastResult',
  eventPrefix: 'OPERATION_FORECAST_RESULT',
  objectType: 'OPERATION',
  ownerField: 'operationId',
  ownerTable: 'operations',
  ownerResource: 'operation',
  table: 'operation_forecast_results',
};

export const OPERATION_PLANNING_RESULTS: ResultKind = {
  resource: 'planningResult',
  eventPrefix: 'OPERATION_PLANNING_RESULT',
  objectType: 'OPERATION',
  ownerField: 'operationId',
  ownerTable: 'operations',
  ownerResource: 'operation',
  table: 'operation_planning_results',
};

export const STAFF_MEMBER_PLANNING_RESULTS: ResultKind = {
  resource: 'planningResult',
  eventPrefix: 'STAFF_MEMBER_PLANNING_RESULT',
  objectType: 'STAFF_MEMBER',
  ownerField: 'staffMemberId',
  ownerTable: 'staff_members',
  ownerResource: 'staffMember',
  table: 'staff_member_planning_results',
};

/** An element of a bulk body or scenario: a result input naming its owner. */
export interface ResultElement extends ResultInput {
  ownerId: string;
}

/** The date properties of a result. */
export const RESULT_DATES = [
  'startDate',
  'endDate',
  'setupStartDate',
  'setupEndDate',
  'processingStartDate',
  'processingEndDate',
] as const;

export const RESULT_PROPERTIES = ['workplaceId', ...RESULT_DATES, 'fixed'] as const;

const DATE_PAIRS = [
  ['startDate', 'endDate'],
  ['setupStartDate', 'setupEndDate'],
  ['processingStartDate', 'processingEndDate'],
] as const;

/** A period ends no earlier than it starts (either end may be open). */
export function checkPeriod(start: Date | null, end: Date | null, startName: string, endField: string): void {
  if (start !== null && end !== null && end.getTime() < start.getTime()) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: endField,
      detail: `must not be before ${startName}`,
    });
  }
}

/** Each period of a result ends no earlier than it starts; `prefix` names the element (`assignments[3].`). */
export function checkResultDates(input: ResultInput, prefix = ''): void {
  for (const [start, end] of DATE_PAIRS) checkPeriod(input[start], input[end], start, `${prefix}${end}`);
}

/** Each owner at most once in a bulk body or scenario: `<list>[i].<ownerField>` names the repetition. */
export function checkUniqueOwners(
  elements: readonly ResultElement[],
  list: string,
  ownerField: string,
): void {
  const seen = new Set<string>();
  elements.forEach((element, index) => {
    if (seen.has(element.ownerId)) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: `${list}[${index}].${ownerField}`,
        detail: 'appears more than once in this body',
      });
    }
    seen.add(element.ownerId);
  });
}

/** Comparable values of a result's properties: times as ISO text, so equal instants compare equal. */
export function resultValues(input: ResultInput) {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    workplaceId: input.workplaceId,
    startDate: iso(input.startDate),
    endDate: iso(input.endDate),
    setupStartDate: iso(input.setupStartDate),
    setupEndDate: iso(input.setupEndDate),
    processingStartDate: iso(input.processingStartDate),
    processingEndDate: iso(input.processingEndDate),
    fixed: input.fixed,
  };
}

export type ScenarioKind = 'OPERATION' | 'STAFF_MEMBER';

/** A planning scenario: an alternative plan, kept as computed (it never changes). */
export interface PlanningScenario {
  id: string;
  kind: ScenarioKind;
  name: string | null;
  description: string | null;
  elements: ResultElement[];
  /** The client that created it; null when not recorded. */
  creator: string | null;
  createdAt: Date;
  /** When the plan it was computed against changed (operation scenarios only). */
  obsoleteSince: Date | null;
}

export interface PredictedMalfunctionScenarioInput {
  workplaceId: string;
  startDate: Date;
  endDate: Date;
  probability: number;
  operatingStateId: string | null;
  description: string | null;
}

export interface PredictedMalfunctionScenario extends PredictedMalfunctionScenarioInput {
  id: string;
  /** The client that created it; null when not recorded. */
  creator: string | null;
  createdAt: Date;
  /** When the workplace went into a downtime state after the prediction. */
  obsoleteSince: Date | null;
}

/**
 * An imminent malfunction, the element of a malfunction scenario in the real API's form
 * (docs/decisions/0020-malfunction-scenario-elements.md): a stored prediction is one, at its
 * workplace; its period's start is when the malfunction becomes likely. When it becomes highly
 * likely (`criticalDate`) a prediction of one period and one probability does not say: null.
 */
export interface ImminentMalfunction {
  workplaceId: string;
  operatingStateId: string | null;
  prewarningDate: Date;
  criticalDate: null;
}

export const imminentMalfunctionsOf = (scenario: PredictedMalfunctionScenario): ImminentMalfunction[] => [
  {
    workplaceId: scenario.workplaceId,
    operatingStateId: scenario.operatingStateId,
    prewarningDate: scenario.startDate,
    criticalDate: null,
  },
];

/** Operating states that end forecasts and malfunction predictions of a workplace (see docs). */
const OBSOLETING_WORKPLACE_STATE: WorkplaceStateId = 'DOWNTIME';

/** The events of what a workplace's change into `state` outdates, before the change reads what that is. */
export interface Outdated {
  /** OBSOLETE_PREDICTED_MALFUNCTION_SCENARIOS, without the predictions' ids; null: none outdated. */
  predictions: NewEvent | null;
  /** OBSOLETE_OPERATION_FORECAST_RESULTS, without the operation; null: none outdated. */
  forecasts: NewEvent | null;
}

/**
 * A change into a downtime state outdates the workplace's malfunction predictions and the
 * forecast results on it that have not ended (docs/resources/planning.md); the change fills in
 * which (src/db/migrations/161_operating_state_in_one_call.sql).
 */
export function outdatedByOperatingState(workplaceId: string, state: OperatingState): Outdated {
  if (state.workplaceStateId !== OBSOLETING_WORKPLACE_STATE) return { predictions: null, forecasts: null };
  return {
    predictions: catalogueEvent('OBSOLETE_PREDICTED_MALFUNCTION_SCENARIOS', null, { workplaceId }),
    forecasts: catalogueEvent('OBSOLETE_OPERATION_FORECAST_RESULTS', null, {
      workplaceId,
      operatingStateId: state.id,
    }),
  };
}

/** A period of time; either end of a horizon may be unknown while no result bounds it. */
export interface Span {
  startDate: Date;
  endDate: Date;
}

/**
 * A staff member's planning result of one of their shifts: the part of their dispatching (their
 * one stored planning result) that lies in the shift. The service stores one dispatching per
 * staff member, so a shift holds at most one assignment.
 */
export interface ShiftPlanningResult extends StaffMemberShift {
  assignments: ShiftAssignment[];
}

interface ShiftAssignment extends Span {
  workplaceId: string;
  /** The shift of the assigned workplace running at the assignment's start, if any. */
  workplaceShiftId: string | null;
  fixed: boolean;
}

/** The part of a result inside a shift; none when they only touch or do not meet. */
export function partInShift(shift: Span, result: Span): Span | undefined {
  const startDate = Math.max(shift.startDate.getTime(), result.startDate.getTime());
  const endDate = Math.min(shift.endDate.getTime(), result.endDate.getTime());
  return startDate < endDate ? { startDate: new Date(startDate), endDate: new Date(endDate) } : undefined;
}

/** A shift's assignment as a PUT sends it: the dispatching, and what a GET derived beside it. */
export interface ShiftAssignmentInput {
  element: ResultElement;
  staffMemberShiftId: string | null;
  workplaceShiftId: string | null;
}

const refuse = (field: string, detail: string) =>
  new AppError('VALIDATION_FAILED', { rule: 'value', field: `elements[0].${field}`, detail });

/**
 * A shift's assignment as a PUT sets it (the body holds at most one: one dispatching per staff
 * member): of the staff member and shift the path names, inside the shift.
 */
export function checkShiftAssignment(shift: StaffMemberShift, input: ShiftAssignmentInput): void {
  const { element } = input;
  checkResultDates(element, 'elements[0].');
  if (element.ownerId !== shift.staffMemberId)
    throw refuse('staffMemberId', 'must be the staff member of the path');
  if (input.staffMemberShiftId !== null && input.staffMemberShiftId !== shift.id)
    throw refuse('staffMemberShiftId', 'must be the shift of the path');
  const inside =
    element.startDate.getTime() >= shift.startDate.getTime() &&
    element.endDate.getTime() <= shift.endDate.getTime();
  if (!inside) {
    throw refuse(
      'startDate',
      `the assignment must lie inside the shift (${shift.startDate.toISOString()} to ${shift.endDate.toISOString()})`,
    );
  }
}

/** A workplace shift id sent back must be the one the service derives (none sent: nothing to check). */
export function checkWorkplaceShift(input: ShiftAssignmentInput, derived: string | null): void {
  if (input.workplaceShiftId !== null && input.workplaceShiftId !== derived)
    throw refuse('workplaceShiftId', `is derived from workplaceId and startDate: ${derived ?? 'null'}`);
}

/** A production order with a result of one of its operations: all its operations and their results. */
export interface PlannedOrder {
  deliveryDate: Date | null;
  operationCount: number;
  /** The results (of the summarized kind) of its operations, wherever they lie in time. */
  results: Span[];
}

/** What the summary of operation results is computed from (docs/resources/planning.md). */
export interface ResultSummaryInput {
  /** The period asked for; an open end is bounded by the results. */
  period: { startDate?: Date | undefined; endDate?: Date | undefined };
  /** The results overlapping the period. */
  results: ResultInput[];
  /** The production orders of the operations of those results. */
  orders: PlannedOrder[];
  /** The shifts of the workplaces of those results that overlap the horizon. */
  shifts: (Span & { workplaceId: string })[];
}

export interface ResultSummary {
  startDate: Date | null;
  endDate: Date | null;
  numberOfWorkplaces: number;
  scheduledOperatingTime: number;
  plannedProcessingTime: number;
  plannedExecutionTime: number;
  numberOfPlannedProductionOrders: number;
  plannedLeadTime: number;
  minimumLeadTimeWithSetup: number;
  numberOfPartiallyPlannedProductionOrders: number;
  adherenceToDeliveryDates: number | null;
  schedulingEfficiency: number | null;
  occupancyRate: number | null;
  setupReduction: number | null;
}

const ms = (date: Date) => date.getTime();

/** Milliseconds of [start, end) inside the horizon; 0 for a missing end or no horizon. */
function within(start: Date | null, end: Date | null, horizon: Span | null): number {
  if (start === null || end === null || horizon === null) return 0;
  return Math.max(0, Math.min(ms(end), ms(horizon.endDate)) - Math.max(ms(start), ms(horizon.startDate)));
}

/** Milliseconds covered by the spans inside the horizon, each instant counted once. */
function covered(spans: readonly Span[], horizon: Span | null): number {
  const sorted = [...spans].sort((a, b) => ms(a.startDate) - ms(b.startDate));
  let total = 0;
  let reached = Number.NEGATIVE_INFINITY;
  for (const span of sorted) {
    const start = new Date(Math.max(ms(span.startDate), reached));
    total += within(start, span.endDate, horizon);
    reached = Math.max(reached, ms(span.endDate));
  }
  return total;
}

const ratio = (numerator: number, denominator: number) =>
  denominator === 0 ? null : numerator / denominator;

/**
 * The figures of a plan over a horizon, as the real API sums up its planning and forecast result
 * collections: times in milliseconds inside the horizon, lead times over the completely planned
 * production orders, rates null where their denominator is zero.
 */
export function summarizeResults({ period, results, orders, shifts }: ResultSummaryInput): ResultSummary {
  const startDate =
    period.startDate ??
    (results.length === 0 ? null : new Date(Math.min(...results.map((r) => ms(r.startDate)))));
  const endDate =
    period.endDate ??
    (results.length === 0 ? null : new Date(Math.max(...results.map((r) => ms(r.endDate)))));
  const horizon = startDate !== null && endDate !== null ? { startDate, endDate } : null;

  const workplaces = new Set(results.map((result) => result.workplaceId));
  let scheduledOperatingTime = 0;
  for (const workplaceId of workplaces) {
    scheduledOperatingTime += covered(
      shifts.filter((shift) => shift.workplaceId === workplaceId),
      horizon,
    );
  }
  let execution = 0;
  let processing = 0;
  let setup = 0;
  for (const result of results) {
    execution += within(result.startDate, result.endDate, horizon);
    processing += within(result.processingStartDate, result.processingEndDate, horizon);
    setup += within(result.setupStartDate, result.setupEndDate, horizon);
  }

  const complete = orders.filter((order) => order.results.length === order.operationCount);
  let plannedLeadTime = 0;
  let minimumLeadTimeWithSetup = 0;
  let inTime = 0;
  let withDeliveryDate = 0;
  for (const order of complete) {
    const first = Math.min(...order.results.map((r) => ms(r.startDate)));
    const last = Math.max(...order.results.map((r) => ms(r.endDate)));
    const leadTime = last - first;
    const backToBack = order.results.reduce((sum, r) => sum + ms(r.endDate) - ms(r.startDate), 0);
    plannedLeadTime += leadTime;
    // Operations the plan already overlaps cannot finish sooner than the plan has them finish.
    minimumLeadTimeWithSetup += Math.min(backToBack, leadTime);
    if (order.deliveryDate !== null) {
      withDeliveryDate++;
      if (last <= ms(order.deliveryDate)) inTime++;
    }
  }

  return {
    startDate,
    endDate,
    numberOfWorkplaces: workplaces.size,
    scheduledOperatingTime,
    plannedProcessingTime: processing,
    plannedExecutionTime: execution,
    numberOfPlannedProductionOrders: complete.length,
    plannedLeadTime,
    minimumLeadTimeWithSetup,
    numberOfPartiallyPlannedProductionOrders: orders.length - complete.length,
    adherenceToDeliveryDates: ratio(inTime, withDeliveryDate),
    schedulingEfficiency: ratio(minimumLeadTimeWithSetup, plannedLeadTime),
    occupancyRate: ratio(execution, scheduledOperatingTime),
    setupReduction: execution === 0 ? null : 1 - setup / execution,
  };
}

/** First start to last end of the results; empty without results. */
export function horizonOf(results: readonly Span[]): { startDate?: Date; endDate?: Date } {
  if (results.length === 0) return {};
  return {
    startDate: new Date(Math.min(...results.map((result) => ms(result.startDate)))),
    endDate: new Date(Math.max(...results.map((result) => ms(result.endDate)))),
  };
}

/** The figures of a staff member planning scenario; what the plant does not record is null. */
export interface StaffScenarioSummary {
  startDate: Date | null;
  endDate: Date | null;
  operationsPlanningScenarioId: null;
  numberOfPlannedStaffMembers: number;
  scheduledWorkingTime: null;
  occupancyTime: number;
  occupancyRate: null;
  numberOfWorkplaces: number;
  requirementOfStaffHours: null;
  coverageOfPersonnelRequirements: null;
}

/**
 * A staff member scenario's figures from its elements: the horizon, how many staff members and
 * workplaces it plans and the time it dispatches them (each element start to end). The working
 * time they are scheduled for, the staff hours required and the operation scenario it was planned
 * against are not recorded, so they and the rates over them are null.
 */
export function summarizeStaffScenario(
  elements: readonly (ResultInput & { ownerId: string })[],
  horizon: { startDate?: Date | undefined; endDate?: Date | undefined } = horizonOf(elements),
): StaffScenarioSummary {
  return {
    startDate: horizon.startDate ?? null,
    endDate: horizon.endDate ?? null,
    operationsPlanningScenarioId: null,
    numberOfPlannedStaffMembers: new Set(elements.map((element) => element.ownerId)).size,
    scheduledWorkingTime: null,
    occupancyTime: elements.reduce((sum, element) => sum + ms(element.endDate) - ms(element.startDate), 0),
    occupancyRate: null,
    numberOfWorkplaces: new Set(elements.map((element) => element.workplaceId)).size,
    requirementOfStaffHours: null,
    coverageOfPersonnelRequirements: null,
  };
}
