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

const length = (spans: readonly Span[]) => spans.reduce((sum, span) => sum + (span.end - span.start), 0);

/**
 * The scheduled time of a workplace in the window, up to now: its shifts there, or the whole
 * window when it has none there (docs/resources/reports.md, "Scheduled time").
 */
export function scheduledSpans(shifts: readonly RecordedPeriod[], window: Span, now: number): Span[] {
  const elapsed: Span = { start: window.start, end: Math.min(window.end, now) };
  if (elapsed.end <= elapsed.start) return [];
  const shiftSpans = shifts.flatMap((shift) => clip(shift, elapsed, now) ?? []);
  return shifts.length > 0 ? union(shiftSpans) : [elapsed];
}

/** The pieces of a recorded period inside the disjoint spans (open periods end at `now`). */
export function clipToSpans(period: RecordedPeriod, spans: readonly Span[], now: number): Span[] {
  return spans.flatMap((span) => clip(period, span, now) ?? []);
}

/** Whether an instant lies in one of the half-open spans. */
const inSpans = (at: number, spans: readonly Span[]): boolean =>
  spans.some((span) => at >= span.start && at < span.end);

// ---- quantities -------------------------------------------------------------------------

export interface Quantities {
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

export const totalOf = (q: Quantities) => q.yield + q.scrap + q.rework + q.uncategorized;

export function sumQuantities(bookings: readonly Pick<Booking, 'quantity' | 'quantityType'>[]): Quantities {
  const sum: Quantities = { yield: 0, scrap: 0, rework: 0, uncategorized: 0 };
  for (const booking of bookings) sum[FIELD[booking.quantityType]] += booking.quantity;
  return sum;
}

/** targetTimePerUnit x quantity over the bookings with a target time (ms). */
export const idealTime = (bookings: readonly Booking[]) =>
  bookings.reduce(
    (sum, booking) =>
      booking.targetTimePerUnit === null ? sum : sum + booking.targetTimePerUnit * booking.quantity,
    0,
  );

/** part / whole in 0..1, null when whole is 0 (docs/resources/reports.md, "Rates"). */
export const ratio = (part: number, whole: number) =>
  whole > 0 ? Math.min(1, Math.max(0, part / whole)) : null;

export interface QuantitySummary {
  targetQuantity: number | null;
  totalQuantity: number;
  remainingQuantity: number | null;
  /** yield / totalQuantity; null without bookings. */
  qualityRate: number | null;
  /** First the total over all workplaces (workplaceId null), then one per workplace by id. */
  elements: { workplaceId: string | null; quantities: Quantities; totalQuantity: number }[];
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
  const element = (workplaceId: string | null, quantities: Quantities) => ({
    workplaceId,
    quantities,
    totalQuantity: totalOf(quantities),
  });
  const perWorkplace = [...byWorkplace.keys()]
    .sort()
    .map((workplaceId) => element(workplaceId, sumQuantities(byWorkplace.get(workplaceId) ?? [])));
  return {
    targetQuantity,
    totalQuantity: totalOf(total),
    remainingQuantity: targetQuantity === null ? null : Math.max(0, targetQuantity - total.yield),
    qualityRate: ratio(total.yield, totalOf(total)),
    elements: [element(null, total), ...perWorkplace],
  };
}

// ---- operating state summary --------------------------------------------------------------

/** Phases in which the operation runs on its workplace: their workplace's states count. */
export const RUNNING_PHASES: readonly OperationPhaseId[] = ['SETUP', 'TRAINING', 'PROCESSING'];
/** Phases that make up the execution time. */
const EXECUTION_PHASES: readonly OperationPhaseId[] = ['SETUP', 'TRAINING', 'PROCESSING', 'INTERRUPTED'];

interface StateElement {
  operatingState: OperatingState;
  duration: number;
  /** How many recorded periods of the state count (each at least partly inside). */
  frequency: number;
}

export interface OperatingStateSummary {
  setupTime: number;
  processingTime: number;
  interruptionTime: number;
  executionTime: number;
  /**
   * An operation's: time in PRODUCTION states while it was in PROCESSING; a workplace's: its
   * time in PRODUCTION states.
   */
  productionTime: number;
  /** 1 - setupTime / executionTime. */
  setupReduction: number | null;
  /** Time in PRODUCTION states during PROCESSING phases / processingTime. */
  processAvailability: number | null;
  /** processingTime / yield (ms per good unit); null before the first good unit. */
  timePerUnit: number | null;
  elements: StateElement[];
}

/** A clipped piece of a state period; `period` tells which recorded period it came from. */
export interface StatePiece {
  operatingStateId: string;
  span: Span;
  period: StatePeriod;
}

/** Time and number of periods per operating state, in master data order, zeros left out. */
function stateElements(pieces: readonly StatePiece[]): StateElement[] {
  const durations = new Map<string, number>();
  const periods = new Map<string, Set<StatePeriod>>();
  for (const { operatingStateId, span, period } of pieces) {
    durations.set(operatingStateId, (durations.get(operatingStateId) ?? 0) + span.end - span.start);
    const seen = periods.get(operatingStateId) ?? new Set();
    seen.add(period);
    periods.set(operatingStateId, seen);
  }
  return OPERATING_STATES.filter((state) => (durations.get(state.id) ?? 0) > 0).map((state) => ({
    operatingState: state,
    duration: durations.get(state.id) ?? 0,
    frequency: periods.get(state.id)?.size ?? 0,
  }));
}

/** Phase times within the spans (the window, or a workplace's scheduled time in it). */
function phaseTimes(phases: readonly PhasePeriod[], within: readonly Span[], now: number) {
  const time = (ids: readonly OperationPhaseId[]) =>
    phases
      .filter((phase) => ids.includes(phase.operationPhaseId))
      .reduce((sum, phase) => sum + length(clipToSpans(phase, within, now)), 0);
  return {
    setupTime: time(['SETUP', 'TRAINING']),
    processingTime: time(['PROCESSING']),
    interruptionTime: time(['INTERRUPTED']),
    executionTime: time(EXECUTION_PHASES),
  };
}

/**
 * The pieces of the workplace states during the phases of `ids` at that workplace, within the spans.
 */
export function statesDuringPhases(
  phases: readonly PhasePeriod[],
  states: readonly StatePeriod[],
  ids: readonly OperationPhaseId[],
  within: readonly Span[],
  now: number,
): StatePiece[] {
  const pieces: StatePiece[] = [];
  for (const phase of phases) {
    if (!ids.includes(phase.operationPhaseId) || phase.workplaceId === null) continue;
    for (const running of clipToSpans(phase, within, now)) {
      for (const state of states) {
        if (state.workplaceId !== phase.workplaceId) continue;
        const span = clip(state, running, now);
        if (span) pieces.push({ operatingStateId: state.operatingStateId, span, period: state });
      }
    }
  }
  return pieces;
}

/** The time of the pieces in states of workplace state PRODUCTION. */
export const productionOf = (pieces: readonly StatePiece[]) =>
  pieces
    .filter((piece) => operatingStateById(piece.operatingStateId).workplaceStateId === 'PRODUCTION')
    .reduce((sum, piece) => sum + piece.span.end - piece.span.start, 0);

const perGoodUnit = (processingTime: number, yieldQuantity: number) =>
  yieldQuantity > 0 ? processingTime / yieldQuantity : null;

/**
 * The figures every state summary shares, from phase times, production time (`processProduction`:
 * the part of it during PROCESSING phases) and bookings.
 */
function summaryOf(
  times: ReturnType<typeof phaseTimes>,
  production: { productionTime: number; processProduction: number },
  bookings: readonly Booking[],
  elements: StateElement[],
): OperatingStateSummary {
  const setupShare = ratio(times.setupTime, times.executionTime);
  return {
    ...times,
    productionTime: production.productionTime,
    setupReduction: setupShare === null ? null : 1 - setupShare,
    processAvailability: ratio(production.processProduction, times.processingTime),
    timePerUnit: perGoodUnit(times.processingTime, sumQuantities(bookings).yield),
    elements,
  };
}

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
  const all: Span[] = [{ start: Number.NEGATIVE_INFINITY, end: now }];
  const processProduction = productionOf(statesDuringPhases(phases, states, ['PROCESSING'], all, now));
  return summaryOf(
    phaseTimes(phases, all, now),
    { productionTime: processProduction, processProduction },
    bookings,
    stateElements(statesDuringPhases(phases, states, RUNNING_PHASES, all, now)),
  );
}

export interface WorkplaceStateSummary extends OperatingStateSummary {
  scheduledOperatingTime: number;
  /** The execution time of the operations at the workplace (equal to executionTime). */
  occupancyTime: number;
  occupancyRate: number | null;
  availability: number | null;
}

/**
 * A workplace's summary over its scheduled time in the window: phases recorded there, its
 * states, the bookings there (docs/resources/reports.md, "Workplace operating state summary").
 */
export function workplaceStateSummary(
  inputs: WorkplaceInputs & { phases: readonly PhasePeriod[] },
  window: Span,
  now: number,
): WorkplaceStateSummary {
  const scheduled = scheduledSpans(inputs.shifts, window, now);
  const pieces = inputs.states.flatMap((state) =>
    clipToSpans(state, scheduled, now).map((span) => ({
      operatingStateId: state.operatingStateId,
      span,
      period: state,
    })),
  );
  const times = phaseTimes(inputs.phases, scheduled, now);
  const oee = oeeTimes(inputs, window, now);
  return {
    ...summaryOf(
      times,
      {
        productionTime: productionOf(pieces),
        processProduction: productionOf(
          statesDuringPhases(inputs.phases, inputs.states, ['PROCESSING'], scheduled, now),
        ),
      },
      countedBookings(inputs.bookings, scheduled),
      stateElements(pieces),
    ),
    scheduledOperatingTime: length(scheduled),
    occupancyTime: times.executionTime,
    occupancyRate: ratio(times.executionTime, length(scheduled)),
    availability: ratio(oee.productionTime, oee.plannedProductionTime),
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

/** The bookings made in the scheduled time (so outside the window or after a shift they do not count). */
export const countedBookings = <B extends Booking>(bookings: readonly B[], scheduled: readonly Span[]): B[] =>
  bookings.filter((booking) => inSpans(booking.timestamp.getTime(), scheduled));

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
 * idealProductionTime = sum of targetTimePerUnit x quantity over the bookings in the scheduled
 * time with a target (a booking after the shift counts neither its time nor its pieces).
 */
export function oeeTimes(inputs: WorkplaceInputs, window: Span, now: number): OeeTimes {
  const scheduled = scheduledSpans(inputs.shifts, window, now);
  let plannedStops = 0;
  let productionTime = 0;
  for (const state of inputs.states) {
    const inScheduled = length(clipToSpans(state, scheduled, now));
    const master = operatingStateById(state.operatingStateId);
    if (isPlannedStop(master)) plannedStops += inScheduled;
    else if (master.workplaceStateId === 'PRODUCTION') productionTime += inScheduled;
  }
  const plannedProductionTime = length(scheduled) - plannedStops;
  const bookings = countedBookings(inputs.bookings, scheduled);
  const quantities = sumQuantities(bookings);
  return {
    plannedProductionTime,
    productionTime,
    downtime: plannedProductionTime - productionTime,
    idealProductionTime: idealTime(bookings),
    totalQuantity: totalOf(quantities),
    yieldQuantity: quantities.yield,
    scrapQuantity: quantities.scrap,
  };
}

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

export interface WorkplaceQuantitySummary extends QuantitySummary {
  /** idealProductionTime / productionTime, as the OEE's. */
  performance: number | null;
  /** yield / total. */
  quantityBasedQualityRate: number | null;
  /** The ideal time of the yield / the ideal time of all pieces (pieces with a target time only). */
  timeBasedQualityRate: number | null;
}

/** A workplace's bookings in its scheduled time in the window, and its performance there. */
export function workplaceQuantitySummary(
  inputs: WorkplaceInputs,
  window: Span,
  now: number,
): WorkplaceQuantitySummary {
  const bookings = countedBookings(inputs.bookings, scheduledSpans(inputs.shifts, window, now));
  const summary = quantitySummary(null, bookings);
  const times = oeeTimes(inputs, window, now);
  const good = bookings.filter((booking) => booking.quantityType === 'YIELD');
  return {
    ...summary,
    performance: ratio(times.idealProductionTime, times.productionTime),
    quantityBasedQualityRate: summary.qualityRate,
    timeBasedQualityRate: ratio(idealTime(good), idealTime(bookings)),
  };
}
