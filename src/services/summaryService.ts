// Summaries of operations and workplaces, and the OEE report (docs/resources/reports.md): the
// owner is checked (404), the inputs read (src/db/repositories/summaryRepository.ts) and combined by the
// pure functions of src/domain/summaries.ts. `now` comes from the app's clock.
import type { Database } from '../db/database.ts';
import * as repository from '../db/repositories/summaryRepository.ts';
import { findWorkplaceGroup } from '../db/repositories/workplaceGroupRepository.ts';
import { findWorkplace } from '../db/repositories/workplaceRepository.ts';
import { AppError } from '../domain/errors.ts';
import type { Operation } from '../domain/operations.ts';
import type { Material } from '../domain/productionOrders.ts';
import {
  idealTime,
  type OeeReport,
  type OperatingStateSummary,
  oeeReport,
  operationStateSummary,
  type QuantitySummary,
  quantitySummary,
  ratio,
  type Span,
  windowOf,
  workplaceQuantitySummary,
  workplaceStateSummary,
} from '../domain/summaries.ts';
import type { Workplace, WorkplaceGroup } from '../domain/workplaces.ts';
import { getOperation } from './operationService.ts';
import { getProductionOrder } from './productionOrderService.ts';
import { type WorkplaceScope, workplacesOf } from './reportService.ts';
import { getWorkplace } from './workplaceService.ts';

export interface Period {
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

export interface Specification {
  operation: Operation;
  workplace: Workplace | null;
  capacityGroup: WorkplaceGroup | null;
}

/** An operation's standard values with its planned workplace and that workplace's capacity group. */
export async function getSpecification(db: Database, operationId: string): Promise<Specification> {
  const operation = await getOperation(db, operationId);
  const workplace = operation.workplaceId ? ((await findWorkplace(db, operation.workplaceId)) ?? null) : null;
  const groupId = operation.workplaceGroupId ?? workplace?.capacityGroupId ?? null;
  const capacityGroup = groupId ? ((await findWorkplaceGroup(db, groupId)) ?? null) : null;
  return { operation, workplace, capacityGroup };
}

export interface OperationQuantitySummary extends QuantitySummary {
  operation: Operation;
  /** Its own material, else its production order's. */
  material: Material | null;
  /** idealProductionTime / productionTime over the operation's whole history. */
  performance: number | null;
  productionTime: number;
  timePerUnit: number | null;
}

/** The operation's bookings, with its performance from its state summary (docs/resources/reports.md). */
export async function getOperationQuantitySummary(
  db: Database,
  operationId: string,
  now: Date,
): Promise<OperationQuantitySummary> {
  const { operation, summary } = await operationStateSummaryOf(db, operationId, now);
  const bookings = await repository.listOperationBookings(db, operation.id);
  return {
    ...quantitySummary(operation.targetQuantity, bookings),
    operation,
    material: operation.material ?? (await getProductionOrder(db, operation.productionOrderId)).material,
    performance: ratio(idealTime(bookings), summary.productionTime),
    productionTime: summary.productionTime,
    timePerUnit: summary.timePerUnit,
  };
}

export async function getOperationStateSummary(
  db: Database,
  operationId: string,
  now: Date,
): Promise<OperatingStateSummary> {
  return (await operationStateSummaryOf(db, operationId, now)).summary;
}

async function operationStateSummaryOf(db: Database, operationId: string, now: Date) {
  const operation = await getOperation(db, operationId);
  const phases = await repository.listOperationPhasePeriods(db, operation.id);
  const workplaceIds = [
    ...new Set(phases.flatMap((phase) => (phase.workplaceId ? [phase.workplaceId] : []))),
  ];
  // The states from its first phase's start to its last phase's end (now while one is open).
  const span = {
    start: Math.min(...phases.map((phase) => phase.startDate.getTime())),
    end: Math.max(...phases.map((phase) => (phase.endDate ?? now).getTime())),
  };
  const states = phases.length === 0 ? [] : await repository.listStatePeriods(db, workplaceIds, span);
  const bookings = await repository.listOperationBookings(db, operation.id);
  return { operation, summary: operationStateSummary(phases, states, bookings, now.getTime()) };
}

export interface InPeriod<T> {
  window: Span;
  summary: T;
}

/** A summary of a workplace (404 without it) in a period: the period's window up to `now`, and what `summarize` makes of it. */
async function ofWorkplaceInPeriod<T>(
  db: Database,
  workplaceId: string,
  period: Period,
  now: Date,
  summarize: (workplaceId: string, window: Span) => Promise<T>,
): Promise<InPeriod<T>> {
  const window = windowOf(period.startDate, period.endDate, now);
  const workplace = await getWorkplace(db, workplaceId);
  return { window, summary: await summarize(workplace.id, window) };
}

/** A workplace's states, shifts and bookings overlapping the window. */
async function workplaceInputs(db: Database, id: string, window: Span) {
  return {
    states: await repository.listStatePeriods(db, [id], window),
    shifts: await repository.listShiftPeriods(db, [id], window),
    bookings: await repository.listWorkplaceBookings(db, [id], window),
  };
}

export const getWorkplaceStateSummary = (db: Database, workplaceId: string, period: Period, now: Date) =>
  ofWorkplaceInPeriod(db, workplaceId, period, now, async (id, window) => {
    const phases = await repository.listWorkplacePhasePeriods(db, [id], window);
    return workplaceStateSummary(
      { ...(await workplaceInputs(db, id, window)), phases },
      window,
      now.getTime(),
    );
  });

/** A workplace's bookings in its scheduled time; it has no target, so targetQuantity and remainingQuantity are null. */
export const getWorkplaceQuantitySummary = (db: Database, workplaceId: string, period: Period, now: Date) =>
  ofWorkplaceInPeriod(db, workplaceId, period, now, async (id, window) =>
    workplaceQuantitySummary(await workplaceInputs(db, id, window), window, now.getTime()),
  );

/** The OEE of one workplace, or of all workplaces of a group taken together (by id or number). */
export async function getOeeReport(
  db: Database,
  query: WorkplaceScope,
  now: Date,
): Promise<InPeriod<OeeReport>> {
  const named = [
    query.workplaceId,
    query.workplaceNumber,
    query.workplaceGroupId,
    query.workplaceGroupNumber,
  ];
  if (named.every((value) => value === undefined)) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'workplaceId',
      detail: 'give exactly one of workplaceId, workplaceNumber, workplaceGroupId and workplaceGroupNumber',
    });
  }
  const window = windowOf(query.startDate, query.endDate, now);
  const workplaceIds = await workplacesOf(db, query);
  const states = await repository.listStatePeriods(db, workplaceIds, window);
  const shifts = await repository.listShiftPeriods(db, workplaceIds, window);
  const bookings = await repository.listWorkplaceBookings(db, workplaceIds, window);
  const inputs = workplaceIds.map((id) => ({
    states: states.filter((state) => state.workplaceId === id),
    shifts: shifts.filter((shift) => shift.workplaceId === id),
    bookings: bookings.filter((booking) => booking.workplaceId === id),
  }));
  return { window, summary: oeeReport(inputs, window, now.getTime()) };
}
