// The reports beside the OEE (docs/resources/reports.md): hit lists of operating states, total
// quantities, quality details and the overall process efficiency (OPE). Pure arithmetic on
// recorded periods and bookings; every time and booking counts only inside the scheduled time of
// its workplace in the window (src/domain/summaries.ts, scheduledSpans), the OPE's inside the window.
import type { OperationPhaseId } from './operationPhases.ts';
import {
  type Booking,
  clip,
  clipToSpans,
  countedBookings,
  idealTime,
  type PhasePeriod,
  productionOf,
  type RecordedPeriod,
  RUNNING_PHASES,
  ratio,
  type Span,
  type StatePeriod,
  scheduledSpans,
  statesDuringPhases,
  sumQuantities,
  totalOf,
} from './summaries.ts';

/** A booking with what the reports group by: its operation and that operation's material. */
export interface ReportBooking extends Booking {
  operationId: string | null;
  /** The number of the operation's material (its own, else its production order's); null when none. */
  materialNumber: string | null;
  /** The operation's target quantity. */
  targetQuantity: number | null;
  /** The quality detail booked with the quantity; null when none was given. */
  qualityDetailId: string | null;
}

/** A phase with the material of its operation. */
export interface ReportPhase extends PhasePeriod {
  operationId: string;
  materialNumber: string | null;
}

/** One workplace of a report: its states and shifts overlapping the window. */
export interface ReportWorkplace {
  id: string;
  states: readonly StatePeriod[];
  shifts: readonly RecordedPeriod[];
}

/** Code-unit order, the same on every machine (ids, numbers). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const byWorkplace = (workplaces: readonly ReportWorkplace[], window: Span, now: number) =>
  new Map(workplaces.map((workplace) => [workplace.id, scheduledSpans(workplace.shifts, window, now)]));

// ---- hit lists ------------------------------------------------------------------------------

export interface HitListEntry {
  /** The workplace id or the material number the entry belongs to. */
  key: string;
  operatingStateId: string;
  duration: number;
  /** duration / the time of all entries of the same key. */
  durationPercentage: number;
  /** duration / the time of all entries of the report. */
  absoluteDurationPercentage: number;
  /** The entry's periods / the periods of all entries of the report. */
  frequency: number;
}

interface Piece {
  key: string;
  operatingStateId: string;
  span: Span;
  period: StatePeriod;
}

/** Sums the pieces per key and state, longest first (then by key and state id). */
function hitList(pieces: readonly Piece[]): HitListEntry[] {
  const entries = new Map<
    string,
    { key: string; operatingStateId: string; duration: number; periods: Set<StatePeriod> }
  >();
  const perKey = new Map<string, number>();
  let total = 0;
  for (const piece of pieces) {
    const id = `${piece.key}\u0000${piece.operatingStateId}`;
    const entry = entries.get(id) ?? {
      key: piece.key,
      operatingStateId: piece.operatingStateId,
      duration: 0,
      periods: new Set(),
    };
    const time = piece.span.end - piece.span.start;
    entry.duration += time;
    entry.periods.add(piece.period);
    entries.set(id, entry);
    perKey.set(piece.key, (perKey.get(piece.key) ?? 0) + time);
    total += time;
  }
  const periods = [...entries.values()].reduce((sum, entry) => sum + entry.periods.size, 0);
  return [...entries.values()]
    .filter((entry) => entry.duration > 0)
    .sort(
      (a, b) =>
        b.duration - a.duration || compare(a.key, b.key) || compare(a.operatingStateId, b.operatingStateId),
    )
    .map((entry) => ({
      key: entry.key,
      operatingStateId: entry.operatingStateId,
      duration: entry.duration,
      durationPercentage: entry.duration / (perKey.get(entry.key) ?? entry.duration),
      absoluteDurationPercentage: entry.duration / total,
      frequency: entry.periods.size / periods,
    }));
}

/** Time per workplace and operating state, in each workplace's scheduled time in the window. */
export function workplaceHitList(workplaces: readonly ReportWorkplace[], window: Span, now: number) {
  const scheduled = byWorkplace(workplaces, window, now);
  return hitList(
    workplaces.flatMap((workplace) =>
      workplace.states.flatMap((state) =>
        clipToSpans(state, scheduled.get(workplace.id) ?? [], now).map((span) => ({
          key: workplace.id,
          operatingStateId: state.operatingStateId,
          span,
          period: state,
        })),
      ),
    ),
  );
}

/**
 * Time per material and operating state: the states of a workplace while an operation of the
 * material ran there (SETUP, TRAINING, PROCESSING), in the workplace's scheduled time.
 * Operations without a material are left out.
 */
export function materialHitList(
  workplaces: readonly ReportWorkplace[],
  phases: readonly ReportPhase[],
  window: Span,
  now: number,
) {
  const scheduled = byWorkplace(workplaces, window, now);
  const states = workplaces.flatMap((workplace) => workplace.states);
  return hitList(
    phases.flatMap((phase) => {
      const material = phase.materialNumber;
      if (material === null || phase.workplaceId === null) return [];
      const within = scheduled.get(phase.workplaceId) ?? [];
      return statesDuringPhases([phase], states, RUNNING_PHASES, within, now).map((piece) => ({
        ...piece,
        key: material,
      }));
    }),
  );
}

// ---- quantities -----------------------------------------------------------------------------

/** The bookings of each workplace inside its scheduled time in the window. */
export function scheduledBookings(
  workplaces: readonly ReportWorkplace[],
  bookings: readonly ReportBooking[],
  window: Span,
  now: number,
): ReportBooking[] {
  const scheduled = byWorkplace(workplaces, window, now);
  return workplaces.flatMap((workplace) =>
    countedBookings(
      bookings.filter((booking) => booking.workplaceId === workplace.id),
      scheduled.get(workplace.id) ?? [],
    ),
  );
}

export interface TotalQuantityEntry {
  workplaceId: string;
  operationId: string | null;
  materialNumber: string | null;
  /** The first and the last booking of the entry. */
  startDate: Date;
  endDate: Date;
  targetQuantity: number | null;
  yieldQuantity: number;
  scrapQuantity: number;
  reworkQuantity: number;
  totalQuantity: number;
}

/**
 * One entry per workplace and operation (bookings without an operation, a connector's, make one
 * entry per workplace), ordered by workplace id, then first booking.
 */
export function totalQuantities(bookings: readonly ReportBooking[]): TotalQuantityEntry[] {
  const groups = new Map<string, ReportBooking[]>();
  for (const booking of bookings) {
    const id = `${booking.workplaceId}\u0000${booking.operationId ?? ''}`;
    const list = groups.get(id) ?? [];
    list.push(booking);
    groups.set(id, list);
  }
  return [...groups.values()]
    .map((list) => {
      const [first] = list as [ReportBooking];
      const times = list.map((booking) => booking.timestamp.getTime());
      const sum = sumQuantities(list);
      return {
        workplaceId: first.workplaceId as string,
        operationId: first.operationId,
        materialNumber: first.materialNumber,
        startDate: new Date(Math.min(...times)),
        endDate: new Date(Math.max(...times)),
        targetQuantity: first.targetQuantity,
        yieldQuantity: sum.yield,
        scrapQuantity: sum.scrap,
        reworkQuantity: sum.rework,
        totalQuantity: totalOf(sum),
      };
    })
    .sort((a, b) => compare(a.workplaceId, b.workplaceId) || a.startDate.getTime() - b.startDate.getTime());
}

export interface QualityDetailEntry {
  key: string;
  qualityTypeId: 'YIELD' | 'SCRAP' | 'REWORK';
  qualityDetailId: string | null;
  quantity: number;
}

/**
 * The quantity per key (workplace id or material number), quality type and quality detail, by
 * key, type (YIELD, SCRAP, REWORK) and detail. UNCATEGORIZED bookings have no quality type and are
 * left out, as are bookings without a key (no material).
 */
export function qualityDetails(
  bookings: readonly ReportBooking[],
  keyOf: (booking: ReportBooking) => string | null,
): QualityDetailEntry[] {
  const TYPES = ['YIELD', 'SCRAP', 'REWORK'] as const;
  const entries = new Map<string, QualityDetailEntry>();
  for (const booking of bookings) {
    const key = keyOf(booking);
    const type = TYPES.find((candidate) => candidate === booking.quantityType);
    if (key === null || type === undefined) continue;
    const id = `${key}\u0000${type}\u0000${booking.qualityDetailId ?? ''}`;
    const entry = entries.get(id) ?? {
      key,
      qualityTypeId: type,
      qualityDetailId: booking.qualityDetailId,
      quantity: 0,
    };
    entry.quantity += booking.quantity;
    entries.set(id, entry);
  }
  return [...entries.values()].sort(
    (a, b) =>
      compare(a.key, b.key) ||
      TYPES.indexOf(a.qualityTypeId) - TYPES.indexOf(b.qualityTypeId) ||
      compare(a.qualityDetailId ?? '', b.qualityDetailId ?? ''),
  );
}

// ---- OPE ------------------------------------------------------------------------------------

export interface OpeReport {
  executionTime: number;
  setupTime: number;
  processingTime: number;
  productionTime: number;
  throughputTime: number;
  idealProductionTime: number;
  totalQuantity: number;
  yieldQuantity: number;
  setupReduction: number | null;
  processAvailability: number | null;
  performance: number | null;
  quality: number | null;
  productionProcessRatio: number | null;
  schedulingEfficiency: number | null;
  ope: number | null;
}

const phaseTime = (
  phases: readonly PhasePeriod[],
  ids: readonly OperationPhaseId[],
  window: Span,
  now: number,
) =>
  phases
    .filter((phase) => ids.includes(phase.operationPhaseId))
    .reduce((sum, phase) => {
      const span = clip(phase, window, now);
      return span ? sum + span.end - span.start : sum;
    }, 0);

const EXECUTION: readonly OperationPhaseId[] = ['SETUP', 'TRAINING', 'PROCESSING', 'INTERRUPTED'];

/**
 * The OPE of a set of operations in the window (docs/resources/reports.md, "OPE"):
 * setupReduction = 1 - setupTime / executionTime; processAvailability = productionTime /
 * processingTime; performance = idealProductionTime / productionTime; quality = yield / total;
 * ope = their product; productionProcessRatio = productionTime / throughputTime;
 * schedulingEfficiency = executionTime / throughputTime. Each in 0..1, null where its divisor is 0.
 */
export function opeReport(
  phases: readonly ReportPhase[],
  states: readonly StatePeriod[],
  bookings: readonly ReportBooking[],
  window: Span,
  now: number,
): OpeReport {
  const elapsed: Span = { start: window.start, end: Math.min(window.end, now) };
  const executionTime = phaseTime(phases, EXECUTION, window, now);
  const setupTime = phaseTime(phases, ['SETUP', 'TRAINING'], window, now);
  const processingTime = phaseTime(phases, ['PROCESSING'], window, now);
  const productionTime = productionOf(statesDuringPhases(phases, states, ['PROCESSING'], [elapsed], now));
  // Each operation's lead time: its first execution phase's start to its last one's end, in the
  // window; waiting (RELEASED, DISPATCHED) between them counts, before and after not.
  const operations = new Map<string, { start: number; end: number }>();
  for (const phase of phases) {
    const span = EXECUTION.includes(phase.operationPhaseId) ? clip(phase, window, now) : null;
    if (!span) continue;
    const lead = operations.get(phase.operationId);
    operations.set(
      phase.operationId,
      lead ? { start: Math.min(lead.start, span.start), end: Math.max(lead.end, span.end) } : span,
    );
  }
  const throughputTime = [...operations.values()].reduce((sum, lead) => sum + lead.end - lead.start, 0);
  const counted = bookings.filter((booking) => {
    const at = booking.timestamp.getTime();
    return at >= elapsed.start && at < elapsed.end;
  });
  const quantities = sumQuantities(counted);
  const idealProductionTime = idealTime(counted);
  const setupShare = ratio(setupTime, executionTime);
  const setupReduction = setupShare === null ? null : 1 - setupShare;
  const processAvailability = ratio(productionTime, processingTime);
  const performance = ratio(idealProductionTime, productionTime);
  const quality = ratio(quantities.yield, totalOf(quantities));
  const factors = [setupReduction, processAvailability, performance, quality];
  return {
    executionTime,
    setupTime,
    processingTime,
    productionTime,
    throughputTime,
    idealProductionTime,
    totalQuantity: totalOf(quantities),
    yieldQuantity: quantities.yield,
    setupReduction,
    processAvailability,
    performance,
    quality,
    productionProcessRatio: ratio(productionTime, throughputTime),
    schedulingEfficiency: ratio(executionTime, throughputTime),
    ope: factors.some((factor) => factor === null)
      ? null
      : (factors as number[]).reduce((product, factor) => product * factor, 1),
  };
}
