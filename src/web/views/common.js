// @ts-check
// What several pages share (docs/dashboard.md): the operating states with their colours, the
// probes of routes the service may not have, OEE and quantity reads, the quantity bar.
import { all, items, optional } from '../api.js';
import { h } from '../dom.js';

/** @typedef {import('../types.js').OperatingState} OperatingState */
/** @typedef {import('../types.js').Operation} Operation */
/** @typedef {import('../types.js').QuantitySummary} QuantitySummary */
/** @typedef {import('../types.js').OeeReport} OeeReport */
/** @typedef {import('../types.js').Ticket} Ticket */

export const ACTIVE_PHASES = ['SETUP', 'TRAINING', 'PROCESSING', 'INTERRUPTED'];
export const OPEN_PHASES = ['RELEASED', 'DISPATCHED', ...ACTIVE_PHASES];
const SHIFT_MS = 8 * 3600_000;

/** @type {Map<string, OperatingState> | undefined} */
let statesById;
/** Operating states by id (with their colour), read once. */
export async function operatingStates() {
  statesById ??= new Map(
    (await all('/masterData/operatingStates', 'operatingStates')).map((s) => [
      s.id,
      /** @type {OperatingState} */ (s),
    ]),
  );
  return statesById;
}
/** @param {OperatingState | null | undefined} state */
export const colourOf = (state) => (state ? statesById?.get(state.id)?.color : undefined);

/** @type {Map<string, Promise<boolean>>} */
const optionalRoutes = new Map();
/**
 * Routes that other parts of the service may not have: probed once; false while the router
 * answers 404 ROUTE_NOT_FOUND.
 * @param {string} name
 * @param {() => Promise<unknown>} probe
 * @returns {Promise<boolean>}
 */
export function hasRoute(name, probe) {
  let known = optionalRoutes.get(name);
  if (!known) {
    known = probe().then(
      (answer) => answer !== null,
      () => true, // another error (a 400, an unknown id): the route exists
    );
    optionalRoutes.set(name, known);
  }
  return known;
}

/** @type {Map<string, number>} */
const firstRecords = new Map();
/**
 * When the workplace's first operating state was recorded, or -Infinity when it had a state
 * before `before`: a workplace's OEE window never starts before the workplace has records (time
 * before it existed is no downtime of it). Constant once known, so read once per workplace.
 * @param {string} workplaceId
 * @param {Date} before
 */
async function firstRecordOf(workplaceId, before) {
  const known = firstRecords.get(workplaceId);
  if (known !== undefined && known <= before.getTime()) return -Infinity;
  if (known !== undefined) return known;
  const path = `/workplaces/${workplaceId}/recordedOperatingStates`;
  const older = await optional(path, { limit: 1, paginationTimestamp: before.toISOString() });
  /** @param {unknown} page */
  const first = (page) =>
    /** @type {{startDate: string} | undefined} */ (
      /** @type {any} */ (page)?._embedded?.recordedOperatingStates?.[0]?.properties
    );
  let at = -Infinity;
  if (!first(older)) {
    const newer = await optional(path, {
      limit: 1,
      paginationDirection: 'PREVIOUS',
      paginationTimestamp: before.toISOString(),
    });
    const record = first(newer);
    if (record) at = Date.parse(record.startDate);
  }
  firstRecords.set(workplaceId, at);
  return at;
}

/**
 * OEE of a workplace from `since` (the current shift's start) or the last 8 hours, but not from
 * before its first recorded state; null when the service has no OEE report.
 * @param {string} workplaceId
 * @param {Date} [since]
 * @returns {Promise<(OeeReport & {from: Date}) | null>}
 */
export async function oeeOf(workplaceId, since) {
  const end = new Date();
  let start = since ?? new Date(end.getTime() - SHIFT_MS);
  const query = () => ({ workplaceId, startDate: start.toISOString(), endDate: end.toISOString() });
  if (!(await hasRoute('oee', () => optional('/reports/overallEquipmentEfficiency', query())))) return null;
  const first = await firstRecordOf(workplaceId, start).catch(() => -Infinity);
  if (first > start.getTime()) start = new Date(Math.min(first, end.getTime() - 1));
  const answer = await optional('/reports/overallEquipmentEfficiency', query());
  return answer ? { .../** @type {OeeReport} */ (answer.properties), from: start } : null;
}

/**
 * @param {string} operationId
 * @returns {Promise<QuantitySummary | null>}
 */
export async function quantitiesOf(operationId) {
  const path = `/operations/${operationId}/quantitySummary`;
  if (!(await hasRoute('quantities', () => optional(path)))) return null;
  return /** @type {QuantitySummary | null} */ ((await optional(path))?.properties ?? null);
}

/**
 * The quantity done against the target, as text over a bar (two rows: they never overlap).
 * @param {Operation} operation
 * @param {QuantitySummary | null | undefined} summary
 */
export function progress(operation, summary) {
  const target = summary?.targetQuantity ?? operation.targetQuantity;
  if (!target) return null;
  const unit = operation.quantityUnit ?? '';
  if (!summary) return h('span', { class: 'muted quantity-text' }, `target ${target} ${unit}`);
  const done = summary.elements?.[0]?.quantities?.yield ?? summary.totalQuantity ?? 0;
  const share = Math.max(0, Math.min(1, done / target));
  return h(
    'div',
    { class: 'quantity' },
    h('span', { class: 'quantity-text' }, `${done} / ${target} ${unit}`),
    h(
      'div',
      {
        class: 'progress',
        role: 'progressbar',
        'aria-valuemin': 0,
        'aria-valuemax': target,
        'aria-valuenow': done,
        'aria-label': 'Quantity',
      },
      h('span', { style: { width: `${share * 100}%` } }),
    ),
  );
}

/** Ticket states of an open ticket: not DONE or CONFIRMED (docs/resources/tickets.md, "States"). */
export const OPEN_TICKET_STATES = ['NEW', 'IN_PROGRESS', 'REOPENED'];
/** The ticket events that can open, close or move a ticket; their data say where it is now. */
export const TICKET_EVENTS = ['TICKET_CREATED', 'TICKET_UPDATED', 'TICKET_STATE_CHANGED', 'TICKET_DELETED'];

/**
 * The open tickets (of one workplace when given), newest first: the newest 100, in one read.
 * Empty while the service has no /tickets.
 * @param {string} [workplaceId]
 * @returns {Promise<Ticket[]>}
 */
export async function openTickets(workplaceId) {
  const ticketStateId = OPEN_TICKET_STATES.join(',');
  const page = await optional('/tickets', {
    limit: 100,
    ticketStateId,
    ...(workplaceId ? { workplaceId } : {}),
  });
  return items(page, 'tickets');
}
