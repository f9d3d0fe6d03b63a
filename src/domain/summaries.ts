// Summaries and the OEE report (docs/resources/reports.md): pure arithmetic on recorded periods
// (operating states, operation phases, shifts) and output quantity bookings. Every period is
// clipped to the window asked for; a period still open (no end) runs until `now`, which the
// caller passes in from its clock.
import { AppError } from './errors.ts';
import { isPlannedStop, OPERATING_STATES, type OperatingState, operatingStateById } from './masterData.ts';
import type { OperationPhaseId } from './operationPhases.ts';
import type { QuantityType } from './outputQuantities.ts';

/** A half-open period [start, end) in epoch milliseconds. */
export interface Span {
  start: number;
  end: number;
}

/** A recorded period; `endDate` null = still running. */
export interface RecordedPeriod {
  startDate: Date;
  endDate: Date | null;
}

export interface StatePeriod extends RecordedPeriod {
  workplaceId: string;
  operatingStateId: string;
}

export interface PhasePeriod extends RecordedPeriod {
  operationPhaseId: OperationPhaseId;
  workplaceId: string | null;
}

export interface Booking {
  quantity: number;
  quantityType: QuantityType;
  workplaceId: string | null;
  timestamp: Date;
  /** The target time per unit (ms) of the booking's operation, null when it has none. */
  targetTimePerUnit: number | null;
}

/** The longest period a summary or report may cover (docs/resources/reports.md, "Periods"). */
const MAX_PERIOD_MS = 366 * 24 * 3_600_000;
const DEFAULT_PERIOD_MS = 24 * 3_600_000;

/**
 * The window asked for: endDate defaults to now, startDate to 24 h before endDate; endDate must be
 * after startDate and the window at most MAX_PERIOD_MS long.
 */
export function windowOf(startDate: Date | undefined, endDate: Date | undefined, now: Date): Span {
  const end = (endDate ?? now).getTime();
  const start = startDate === undefined ? end - DEFAULT_PERIOD_MS : startDate.getTime();
  if (end <= start) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: endDate === undefined ? 'startDate' : 'endDate',
      detail: endDate === undefined ? 'must be before now' : 'must be after startDate',
    });
  }
  if (end - start > MAX_PERIOD_MS) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'startDate',
      detail: 'the period may be at most 366 days long',
    });
  }
  return { start, end };
}

/** The part of a recorded period inside the window (open periods end at `now`); null when none. */
export function clip(period: RecordedPeriod, window: Span, now: number): Span | null {
  const start = Math.max(period.startDate.getTime(), window.start);
  const end = Math.min(period.endDate === null ? now : period.endDate.getTime(), window.end);
  return end > start ? { start, end } : null;
}

/** The spans merged into disjoint ones, by start. */
export function union(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** How much of `span` lies inside the disjoint `within` spans. */
function overlap(span: Span, within: readonly Span[]): number {
  let total = 0;
  for (const other of within)
    total += Math.max(0, Math.min(span.end, other.end) - Math.max(span.start, other.start));
  return total;
}

const length = (spans: readonly Span[]) => spans.reduce((sum, span) => sum + (span.end - span.start), 0);

// ---- quantities -------------------------------------------------------------------------

interface Quantities {
  yield: number;
  scrap: number;
  rework: number;
  uncategorized: number;
}

const FIELD: Record<QuantityType, keyof Quantities> = {
  YIELD: 'yield',
  SCRAP: 'scrap',
  REWORK: 'rework',
  UNCATEGORIZED: 'uncategorized',
};

const totalOf = (q: Quantities) => q.yield + q.scrap + q.rework + q.uncategorized;

function sumQuantities(bookings: readonly Pick<Booking, 'quantity' | 'quantityType'>[]): Quantities {
  const sum: Quantities = { yield: 0, scrap: 0, rework: 0, uncategorized: 0 };
  for (const booking of bookings) sum[FIELD[booking.quantityType]] += booking.quantity;
  return sum;
}

export interface QuantitySummary {
  targetQuantity: number | null;
  totalQuantity: number;
  remainingQuantity: number | null;
  /** First the total over all workplaces (workplaceId null), then one per workplace by id. */
  elements: { workplaceId: string | null; quantities: Quantities }[];
}

/**
 * totalQuantity = yield + scrap + rework + uncategorized; remainingQuantity = targetQuantity - yield,
 * not below 0 (null without a target).
 */
export function quantitySummary(
  targetQuantity: number | null,
  bookings: readonly Booking[],
): QuantitySummary {
  const total = sumQuantities(bookings);
  const byWorkplace = new Map<string, Booking[]>();
  for (const booking of bookings) {
    if (booking.workplaceId === null) continue;
    const list = byWorkplace.get(booking.workplaceId) ?? [];
    list.push(booking);
    byWorkplace.set(booking.workplaceId, list);
  }
  const perWorkplace = [...byWorkplace.keys()]
    .sort()
    .map((workplaceId) => ({ workplaceId, quantities: sumQuantities(byWorkplace.get(workplaceId) ?? []) }));
  return {
    targetQuantity,
    totalQuantity: totalOf(total),
    remainingQuantity: targetQuantity === null ? null : Math.max(0, targetQuantity - total.yield),
    elements: [{ workplaceId: null, quantities: total }, ...perWorkplace],
  };
}

// ---- operating state summary --------------------------------------------------------------

/** Phases in which the operation runs on its workplace: their workplace's states count. */
const RUNNING_PHASES: readonly OperationPhaseId[] = ['SETUP', 'TRAINING', 'PROCESSING'];
/** Phases that make up the execution time. */
const EXECUTION_PHASES: readonly OperationPhaseId[] = ['SETUP', 'TRAINING', 'PROCESSING', 'INTERRUPTED'];

export interface OperatingStateSummary {
  setupTime: number;
  processingTime: number;
  interruptionTime: number;
  executionTime: number;
  /** processingTime / yield (ms per good unit); null before the first good unit. */
  timePerUnit: number | null;
  elements: { operatingState: OperatingState; duration: number }[];
}

/** Milliseconds per operating state of the clipped state spans, in master data order, zeros left out. */
function stateDurations(spans: readonly { operatingStateId: string; span: Span }[]) {
  const durations = new Map<string, number>();
  for (const { operatingStateId, span } of spans)
    durations.set(operatingStateId, (durations.get(operatingStateId) ?? 0) + span.end - span.start);
  return OPERATING_STATES.filter((state) => (durations.get(state.id) ?? 0) > 0).map((state) => ({
    operatingState: state,
    duration: durations.get(state.id) ?? 0,
  }));
}

function phaseTimes(phases: readonly PhasePeriod[], window: Span, now: number) {
  const time = (ids: readonly OperationPhaseId[]) =>
    phases
      .filter((phase) => ids.includes(phase.operationPhaseId))
      .reduce((sum, phase) => {
        const span = clip(phase, window, now);
        return span ? sum + span.end - span.start : sum;
      }, 0);
  return {
    setupTime: time(['SETUP', 'TRAINING']),
    processingTime: time(['PROCESSING']),
    interruptionTime: time(['INTERRUPTED']),
    executionTime: time(EXECUTION_PHASES),
  };
}

const perGoodUnit = (processingTime: number, yieldQuantity: number) =>
  yieldQuantity > 0 ? processingTime / yieldQuantity : null;

/**
 * An operation's summary: its phase times, and the states of the workplace each running phase
 * (SETUP, TRAINING, PROCESSING) was at, while it was there. The window is the whole history up to now.
 */
export function operationStateSummary(
  phases: readonly PhasePeriod[],
  states: readonly StatePeriod[],
  bookings: readonly Booking[],
  now: number,
): OperatingStateSummary {
  const all: Span = { start: Number.NEGATIVE_INFINITY, end: now };
  const spans: { operatingStateId: string; span: Span }[] = [];
  for (const phase of phases) {
    if (!RUNNING_PHASES.includes(phase.operationPhaseId) || phase.workplaceId === null) continue;
    const running = clip(phase, all, now);
    if (!running) continue;
    for (const state of states) {
      if (state.workplaceId !== phase.workplaceId) continue;
      const span = clip(state, running, now);
      if (span) spans.push({ operatingStateId: state.operatingStateId, span });
    }
  }
  const times = phaseTimes(phases, all, now);
  return {
    ...times,
    timePerUnit: perGoodUnit(times.processingTime, sumQuantities(bookings).yield),
    elements: stateDurations(spans),
  };
}

/** A workplace's summary over the window: phases recorded there, its states, bookings there. */
export function workplaceStateSummary(
  phases: readonly PhasePeriod[],
  states: readonly StatePeriod[],
  bookings: readonly Booking[],
  window: Span,
  now: number,
): OperatingStateSummary {
  const spans = states.flatMap((state) => {
    const span = clip(state, window, now);
    return span ? [{ operatingStateId: state.operatingStateId, span }] : [];
  });
  const times = phaseTimes(phases, window, now);
  return {
    ...times,
    timePerUnit: perGoodUnit(times.processingTime, sumQuantities(bookings).yield),
    elements: stateDurations(spans),
  };
}

// ---- OEE ------------------------------------------------------------------------------------

/** The inputs of one workplace; the window is already the report's. */
export interface WorkplaceInputs {
  states: readonly StatePeriod[];
  /** Its shifts; none = the whole window is scheduled. */
  shifts: readonly RecordedPeriod[];
  bookings: readonly Booking[];
}

export interface OeeTimes {
  plannedProductionTime: number;
  productionTime: number;
  downtime: number;
  idealProductionTime: number;
  totalQuantity: number;
  yieldQuantity: number;
  scrapQuantity: number;
}

export interface OeeReport extends OeeTimes {
  oee: number | null;
  availability: number | null;
  performance: number | null;
  quality: number | null;
  qualityRate: number | null;
}

/**
 * One workplace's times in the window (docs/resources/reports.md, "OEE"):
 * scheduled = the window, or within it only its shifts when it has any there;
 * plannedProductionTime = scheduled minus the time in planned-stop states;
 * productionTime = scheduled time in states of workplace state PRODUCTION;
 * downtime = plannedProductionTime - productionTime (unplanned stops, and time without a state);
 * idealProductionTime = sum of targetTimePerUnit x quantity over the bookings with a target.
 */
export function oeeTimes(inputs: WorkplaceInputs, window: Span, now: number): OeeTimes {
  const until = Math.min(window.end, now);
  const elapsed: Span = { start: window.start, end: until };
  const shiftSpans = inputs.shifts.flatMap((shift) => clip(shift, elapsed, now) ?? []);
  const scheduled =
    inputs.shifts.length > 0 ? union(shiftSpans) : elapsed.end > elapsed.start ? [elapsed] : [];
  let plannedStops = 0;
  let productionTime = 0;
  for (const state of inputs.states) {
    const span = clip(state, elapsed, now);
    if (!span) continue;
    const master = operatingStateById(state.operatingStateId);
    const inScheduled = overlap(span, scheduled);
    if (isPlannedStop(master)) plannedStops += inScheduled;
    else if (master.workplaceStateId === 'PRODUCTION') productionTime += inScheduled;
  }
  const plannedProductionTime = length(scheduled) - plannedStops;
  const bookings = inputs.bookings.filter((booking) => {
    const at = booking.timestamp.getTime();
    return at >= window.start && at < window.end;
  });
  const quantities = sumQuantities(bookings);
  return {
    plannedProductionTime,
    productionTime,
    downtime: plannedProductionTime - productionTime,
    idealProductionTime: bookings.reduce(
      (sum, booking) =>
        booking.targetTimePerUnit === null ? sum : sum + booking.targetTimePerUnit * booking.quantity,
      0,
    ),
    totalQuantity: totalOf(quantities),
    yieldQuantity: quantities.yield,
    scrapQuantity: quantities.scrap,
  };
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.min(1, Math.max(0, part / whole)) : null);

/**
 * The report of one or more workplaces: their times added up, then
 * availability = productionTime / plannedProductionTime, performance = idealProductionTime /
 * productionTime, quality = qualityRate = yield / total, oee = their product; each in 0..1 (a
 * performance above 1, from generous target times, is shown as 1) and null where its divisor is 0.
 */
export function oeeReport(workplaces: readonly WorkplaceInputs[], window: Span, now: number): OeeReport {
  const sum: OeeTimes = {
    plannedProductionTime: 0,
    productionTime: 0,
    downtime: 0,
    idealProductionTime: 0,
    totalQuantity: 0,
    yieldQuantity: 0,
    scrapQuantity: 0,
  };
  for (const inputs of workplaces) {
    const times = oeeTimes(inputs, window, now);
    for (const key of Object.keys(sum) as (keyof OeeTimes)[]) sum[key] += times[key];
  }
  const availability = ratio(sum.productionTime, sum.plannedProductionTime);
  const performance = ratio(sum.idealProductionTime, sum.productionTime);
  const quality = ratio(sum.yieldQuantity, sum.totalQuantity);
  const oee =
    availability === null || performance === null || quality === null
      ? null
      : availability * performance * quality;
  return { oee, availability, performance, quality, qualityRate: quality, ...sum };
}
