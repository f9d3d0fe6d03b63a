// @ts-check
// The plant page (#/): a tile per workplace, ordered by workplace number. A live event changes
// only the tile it touches, in its place (docs/dashboard.md, "Live updates").
import { all, get, queue, searchAll } from '../api.js';
import { fill, h, percent, stateChip, textOn } from '../dom.js';
import { subscribe } from '../live.js';
import {
  ACTIVE_PHASES,
  colourOf,
  OPEN_TICKET_STATES,
  oeeOf,
  openTickets,
  operatingStates,
  progress,
  quantitiesOf,
  TICKET_EVENTS,
} from './common.js';

/** @typedef {import('../types.js').Workplace} Workplace */
/** @typedef {import('../types.js').Operation} Operation */
/**
 * @typedef {object} Entry
 * @property {Workplace} workplace
 * @property {Operation} [operation]
 * @property {(import('../types.js').OeeReport & {from: Date}) | null} [oee]
 * @property {import('../types.js').QuantitySummary | null} [quantities]
 */

/** Workplace numbers in the order people read them: WP-9 before WP-10. */
const byNumber = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }).compare;

/** @param {HTMLElement} root */
export async function overview(root) {
  const states = await operatingStates();
  const [workplaces, operations, tickets] = await Promise.all([
    all('/workplaces', 'workplaces'),
    searchAll('/operations/search', 'operations', { operationPhaseIds: ACTIVE_PHASES }),
    openTickets().catch(() => []),
  ]);
  // The open tickets by id with their workplace: ticket events say where each is now, so the
  // badges follow them without another read.
  /** @type {Map<string, string>} */
  const openTicketWorkplaces = new Map();
  for (const ticket of tickets)
    if (ticket.workplace) openTicketWorkplaces.set(ticket.id, ticket.workplace.id);
  /** @param {string} workplaceId */
  const openTicketsAt = (workplaceId) => {
    let count = 0;
    for (const at of openTicketWorkplaces.values()) if (at === workplaceId) count += 1;
    return count;
  };
  /** @type {Map<string, Entry>} */
  const byWorkplace = new Map();
  for (const workplace of /** @type {Workplace[]} */ (workplaces).sort((a, b) =>
    byNumber(a.number, b.number),
  ))
    byWorkplace.set(workplace.id, { workplace });
  for (const operation of /** @type {Operation[]} */ (operations)) {
    const entry = operation.workplaceId ? byWorkplace.get(operation.workplaceId) : undefined;
    if (entry && !entry.operation) entry.operation = operation;
  }
  /** @type {Map<string, HTMLElement>} */
  const tiles = new Map();
  const list = h('ul', { class: 'tiles', 'aria-label': 'Workplaces' });
  const counts = h('div', { class: 'summary', 'aria-live': 'polite' });
  const lazy = queue(4);
  // OEE and quantities are read for the tiles on screen only, four requests at a time: with 200
  // workplaces a first load stays a handful of reads, and scrolling fills in the rest.
  /** @type {Set<string>} */
  const onScreen = new Set();
  const outdated = new Set(byWorkplace.keys());
  const observer = new IntersectionObserver((changes) => {
    for (const change of changes) {
      const id = change.target.getAttribute('data-workplace-id') ?? '';
      if (!change.isIntersecting) onScreen.delete(id);
      else {
        onScreen.add(id);
        if (outdated.delete(id)) details(id);
      }
    }
  });
  /** @param {string} id */
  const refreshDetails = (id) => {
    if (onScreen.has(id)) details(id);
    else outdated.add(id);
  };

  /**
   * Puts a new tile where its number belongs: before the first tile with a greater number.
   * @param {HTMLElement} tile
   * @param {string} number
   */
  const insertInOrder = (tile, number) => {
    for (const other of list.children) {
      if (byNumber(other.getAttribute('data-number') ?? '', number) > 0) {
        other.before(tile);
        return;
      }
    }
    list.append(tile);
  };

  /** @param {string} id */
  const render = (id) => {
    const entry = byWorkplace.get(id);
    if (!entry) return;
    const { workplace, operation, oee, quantities } = entry;
    const state = workplace.operatingState;
    const ticketCount = openTicketsAt(id);
    const colour = colourOf(state) ?? '#757575';
    const tile = h(
      'li',
      { class: 'tile', 'data-workplace-id': id, 'data-number': workplace.number, 'data-state': state?.code },
      h(
        'a',
        { href: `#/workplaces/${id}` },
        h(
          'div',
          { class: 'state', style: { background: colour, color: textOn(colour) } },
          state ? `${state.code} ${state.description}` : 'unknown',
        ),
        h(
          'div',
          { class: 'body' },
          h('span', { class: 'number' }, workplace.number),
          ticketCount > 0
            ? h(
                'span',
                { class: 'ticket-badge', 'data-open-tickets': String(ticketCount) },
                `${ticketCount} open ticket${ticketCount === 1 ? '' : 's'}`,
              )
            : null,
          h('span', { class: 'muted description' }, workplace.description ?? ''),
          operation
            ? h('span', { class: 'operation' }, `${operation.number} · ${operation.operationPhaseId}`)
            : h('span', { class: 'muted operation' }, 'no operation in progress'),
          operation ? progress(operation, quantities) : null,
          oee
            ? h(
                'span',
                { class: 'oee', title: `since ${oee.from.toLocaleTimeString()}` },
                `OEE ${percent(oee.oee)}`,
              )
            : null,
        ),
      ),
    );
    const old = tiles.get(id);
    const focused = old?.contains(document.activeElement) ?? false;
    if (old) observer.unobserve(old);
    observer.observe(tile);
    // In place while the number is the same; a renumbered workplace moves to its new place.
    if (old && old.getAttribute('data-number') === workplace.number) old.replaceWith(tile);
    else {
      old?.remove();
      insertInOrder(tile, workplace.number);
    }
    // A live update must not take the keyboard focus away from the tile being looked at.
    if (focused) tile.querySelector('a')?.focus();
    tiles.set(id, tile);
  };
  const renderCounts = () => {
    /** @type {Map<string | undefined, number>} */
    const perState = new Map();
    for (const { workplace } of byWorkplace.values()) {
      const key = workplace.operatingState?.id;
      perState.set(key, (perState.get(key) ?? 0) + 1);
    }
    counts.replaceChildren(
      h('span', {}, `${byWorkplace.size} workplaces`),
      ...[...perState].map(([stateId, count]) => {
        const state = stateId === undefined ? undefined : states.get(stateId);
        return h('span', {}, stateChip(state, state?.color), ` ${count}`);
      }),
    );
  };
  /** @param {string} id */
  const details = (id) =>
    lazy(async () => {
      const entry = byWorkplace.get(id);
      if (!entry) return;
      try {
        entry.oee = await oeeOf(id);
        if (entry.operation) entry.quantities = await quantitiesOf(entry.operation.id);
        render(id);
      } catch {
        // details are optional; the tile stays as it is
      }
    });

  fill(root, h('h1', {}, 'Plant'), counts, workplaces.length ? list : h('p', {}, 'No workplaces yet.'));
  for (const id of byWorkplace.keys()) render(id);
  renderCounts();

  /**
   * @param {string} operationId
   * @param {string | undefined} workplaceId
   */
  const refreshOperation = async (operationId, workplaceId) => {
    const operation = /** @type {Operation} */ ((await get(`/operations/${operationId}`)).properties);
    for (const entry of byWorkplace.values()) {
      if (entry.operation?.id === operationId && entry.workplace.id !== operation.workplaceId) {
        entry.operation = undefined;
        render(entry.workplace.id);
      }
    }
    const entry = byWorkplace.get(operation.workplaceId ?? workplaceId ?? '');
    if (!entry) return;
    if (ACTIVE_PHASES.includes(operation.operationPhaseId)) entry.operation = operation;
    else if (entry.operation?.id === operationId) entry.operation = undefined;
    render(entry.workplace.id);
    refreshDetails(entry.workplace.id);
  };
  const unsubscribe = subscribe(async (event) => {
    const data = event.data ?? {};
    const objectId = event.objectId ?? '';
    if (TICKET_EVENTS.includes(event.eventType)) {
      const before = openTicketWorkplaces.get(objectId);
      const open =
        event.eventType !== 'TICKET_DELETED' &&
        OPEN_TICKET_STATES.includes(data.ticketStateId) &&
        data.workplaceId;
      if (open) openTicketWorkplaces.set(objectId, data.workplaceId);
      else openTicketWorkplaces.delete(objectId);
      for (const workplaceId of new Set([before, open ? data.workplaceId : undefined])) {
        if (workplaceId && byWorkplace.has(workplaceId)) render(workplaceId);
      }
    } else if (event.eventType === 'WORKPLACE_OPERATING_STATE_CHANGED') {
      const entry = byWorkplace.get(data.workplaceId ?? objectId);
      if (!entry) return;
      entry.workplace = { ...entry.workplace, operatingState: data.currentOperatingState };
      render(entry.workplace.id);
      renderCounts();
    } else if (event.eventType === 'OPERATION_PHASE_CHANGED' || event.eventType === 'OPERATION_UPDATED') {
      await refreshOperation(objectId, data.workplaceId).catch(() => {});
    } else if (event.eventType === 'OPERATION_OUTPUT_QUANTITY_RECORDED') {
      const entry = [...byWorkplace.values()].find((e) => e.operation?.id === objectId);
      if (entry) refreshDetails(entry.workplace.id);
    } else if (event.eventType === 'WORKPLACE_CREATED' || event.eventType === 'WORKPLACE_UPDATED') {
      const workplace = /** @type {Workplace | undefined} */ (
        (await get(`/workplaces/${objectId}`).catch(() => null))?.properties
      );
      if (!workplace) return;
      const entry = byWorkplace.get(workplace.id);
      if (entry) entry.workplace = workplace;
      else {
        byWorkplace.set(workplace.id, { workplace });
        outdated.add(workplace.id);
      }
      render(workplace.id);
      renderCounts();
    } else if (event.eventType === 'WORKPLACE_DELETED') {
      byWorkplace.delete(objectId);
      const tile = tiles.get(objectId);
      if (tile) observer.unobserve(tile);
      tile?.remove();
      tiles.delete(objectId);
      renderCounts();
    }
  });
  return () => {
    observer.disconnect();
    unsubscribe();
  };
}
