// The reports beside the OEE (docs/resources/reports.md): the scope asked for is checked (400 for
// a contradiction, 404 for an unknown workplace, group or order), the inputs read
// (src/db/repositories/reportRepository.ts, summaryRepository.ts) and combined by the pure
// functions of src/domain/reports.ts. `now` comes from the app's clock.
import type { Database } from '../db/database.ts';
import * as reports from '../db/repositories/reportRepository.ts';
import * as summaries from '../db/repositories/summaryRepository.ts';
import { AppError, notFound } from '../domain/errors.ts';
import type { MaterialEntry } from '../domain/masterDataEntries.ts';
import {
  type HitListEntry,
  materialHitList,
  type OpeReport,
  opeReport,
  type QualityDetailEntry,
  qualityDetails,
  type ReportBooking,
  type ReportWorkplace,
  scheduledBookings,
  type TotalQuantityEntry,
  totalQuantities,
  workplaceHitList,
} from '../domain/reports.ts';
import { type Span, windowOf } from '../domain/summaries.ts';
import { getProductionOrder } from './productionOrderService.ts';
import type { InPeriod, Period } from './summaryService.ts';
import { getWorkplaceGroup } from './workplaceGroupService.ts';
import { getWorkplace } from './workplaceService.ts';

export interface WorkplaceScope extends Period {
  workplaceId?: string | undefined;
  workplaceNumber?: string | undefined;
  workplaceGroupId?: string | undefined;
  workplaceGroupNumber?: string | undefined;
}

export interface MaterialScope extends Period {
  /** A material's id is its number, the key operations and orders store it by. */
  materialId?: string | undefined;
  materialNumber?: string | undefined;
}

const contradiction = (field: string, detail: string) =>
  new AppError('VALIDATION_FAILED', { rule: 'value', field, detail });

/** The workplaces named by at most one of id, number, group id and group number; none = all. */
export async function workplacesOf(db: Database, scope: WorkplaceScope): Promise<string[]> {
  const given = (
    ['workplaceId', 'workplaceNumber', 'workplaceGroupId', 'workplaceGroupNumber'] as const
  ).filter((field) => scope[field] !== undefined);
  if (given.length > 1) {
    throw contradiction(given[0] as string, `give at most one of ${given.join(', ')}`);
  }
  if (scope.workplaceId !== undefined) return [(await getWorkplace(db, scope.workplaceId)).id];
  if (scope.workplaceGroupId !== undefined) {
    return summaries.listGroupWorkplaceIds(db, (await getWorkplaceGroup(db, scope.workplaceGroupId)).id);
  }
  const ids = await reports.listReportWorkplaceIds(db, scope);
  if (scope.workplaceNumber !== undefined && ids.length === 0)
    throw notFound('workplace', scope.workplaceNumber);
  if (scope.workplaceGroupNumber !== undefined) {
    if (!(await reports.groupNumberExists(db, scope.workplaceGroupNumber)))
      throw notFound('workplaceGroup', scope.workplaceGroupNumber);
  }
  return ids;
}

/** The material number asked for (materialId and materialNumber name the same key). */
function materialOf(scope: MaterialScope): string | undefined {
  if (
    scope.materialId !== undefined &&
    scope.materialNumber !== undefined &&
    scope.materialId !== scope.materialNumber
  ) {
    throw contradiction('materialNumber', 'must name the same material as materialId');
  }
  return scope.materialId ?? scope.materialNumber;
}

/** The workplaces the phases or bookings were recorded at. */
const workplaceIdsOf = (items: readonly { workplaceId: string | null }[]) => [
  ...new Set(items.flatMap((item) => (item.workplaceId === null ? [] : [item.workplaceId]))),
];

/** The states and shifts of the workplaces that overlap the window. */
async function workplaceInputs(
  db: Database,
  ids: readonly string[],
  window: Span,
): Promise<ReportWorkplace[]> {
  const states = await summaries.listStatePeriods(db, ids, window);
  const shifts = await summaries.listShiftPeriods(db, ids, window);
  return ids.map((id) => ({
    id,
    states: states.filter((state) => state.workplaceId === id),
    shifts: shifts.filter((shift) => shift.workplaceId === id),
  }));
}

export interface ReportList<T> {
  window: Span;
  entries: T[];
}

/** A report over the window of the scope's period (open ends up to `now`), with the entries `entriesIn` finds. */
async function reportIn<T>(
  scope: Period,
  now: Date,
  entriesIn: (window: Span) => Promise<T[]>,
): Promise<ReportList<T>> {
  const window = windowOf(scope.startDate, scope.endDate, now);
  return { window, entries: await entriesIn(window) };
}

/** The bookings at the workplaces in their scheduled time in the window. */
async function bookingsAt(
  db: Database,
  ids: readonly string[],
  window: Span,
  now: Date,
  material?: string,
): Promise<ReportBooking[]> {
  const bookings = await reports.listReportBookings(db, ids, window, { materialNumber: material });
  return scheduledBookings(await workplaceInputs(db, ids, window), bookings, window, now.getTime());
}

export const getWorkplaceHitList = (db: Database, scope: WorkplaceScope, now: Date) =>
  reportIn<HitListEntry>(scope, now, async (window) => {
    const workplaces = await workplaceInputs(db, await workplacesOf(db, scope), window);
    return workplaceHitList(workplaces, window, now.getTime());
  });

export const getMaterialHitList = (db: Database, scope: MaterialScope, now: Date) =>
  reportIn<HitListEntry>(scope, now, async (window) => {
    const phases = await reports.listReportPhases(db, { materialNumber: materialOf(scope) }, window);
    const workplaces = await workplaceInputs(db, workplaceIdsOf(phases), window);
    return materialHitList(workplaces, phases, window, now.getTime());
  });

export const getTotalQuantity = (db: Database, scope: WorkplaceScope, now: Date) =>
  reportIn<TotalQuantityEntry>(scope, now, async (window) =>
    totalQuantities(await bookingsAt(db, await workplacesOf(db, scope), window, now)),
  );

export const getWorkplaceQualityDetails = (db: Database, scope: WorkplaceScope & MaterialScope, now: Date) =>
  reportIn<QualityDetailEntry>(scope, now, async (window) => {
    const material = materialOf(scope);
    const bookings = await bookingsAt(db, await workplacesOf(db, scope), window, now, material);
    return qualityDetails(bookings, (booking) => booking.workplaceId);
  });

export const getMaterialQualityDetails = (db: Database, scope: MaterialScope, now: Date) =>
  reportIn<QualityDetailEntry>(scope, now, async (window) => {
    const bookings = await reports.listScopeBookings(db, { materialNumber: materialOf(scope) }, window);
    const workplaces = await workplaceInputs(db, workplaceIdsOf(bookings), window);
    const counted = scheduledBookings(workplaces, bookings, window, now.getTime());
    return qualityDetails(counted, (booking) => booking.materialNumber);
  });

export interface OpeScope extends MaterialScope {
  productionOrderId?: string | undefined;
}

/** The OPE of one production order's operations or one material's. */
export async function getOpeReport(db: Database, scope: OpeScope, now: Date): Promise<InPeriod<OpeReport>> {
  const material = materialOf(scope);
  if ((scope.productionOrderId === undefined) === (material === undefined)) {
    throw contradiction(
      'productionOrderId',
      'give exactly one of productionOrderId and materialId (or materialNumber)',
    );
  }
  const window = windowOf(scope.startDate, scope.endDate, now);
  const operations =
    scope.productionOrderId !== undefined
      ? { productionOrderId: (await getProductionOrder(db, scope.productionOrderId)).id }
      : { materialNumber: material };
  const phases = await reports.listReportPhases(db, operations, window);
  const ids = workplaceIdsOf(phases);
  const states = await summaries.listStatePeriods(db, ids, window);
  const bookings = await reports.listScopeBookings(db, operations, window);
  return { window, summary: opeReport(phases, states, bookings, window, now.getTime()) };
}

/** The materials with these numbers (embedded in the material reports). */
export const findMaterials = (db: Database, numbers: readonly string[]): Promise<MaterialEntry[]> =>
  reports.findMaterials(db, numbers);
