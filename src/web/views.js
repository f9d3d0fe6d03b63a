// The pages (docs/dashboard.md). Each view renders into `root`, subscribes to live events and
// returns a function that unsubscribes when the page is left.

import { all, get, items, optional, queue, searchAll } from './api.js';
import { fill, h, percent, section, stateChip, table, textOn, time } from './dom.js';
import { subscribe } from './live.js';
import uPlot from './vendor/uPlot.esm.js';

const ACTIVE_PHASES = ['SETUP', 'TRAINING', 'PROCESSING', 'INTERRUPTED'];
const OPEN_PHASES = ['RELEASED', 'DISPATCHED', ...ACTIVE_PHASES];
const SHIFT_MS = 8 * 3600_000;

/** Operating states by id (with their colour), read once. */
let statesById;
export async function operatingStates() {
  statesById ??= new Map((await all('/masterData/operatingStates', 'operatingStates')).map((s) => [s.id, s]));
  return statesById;
}
const colourOf = (state) => statesById?.get(state?.id)?.color;

/** Routes that other branches add: probed once, null while the service does not have them. */
const optionalRoutes = new Map();
async function hasRoute(path, probe) {
  if (!optionalRoutes.has(path))
    optionalRoutes.set(
      path,
      probe().then(
        (answer) => answer !== null,
        () => true, // another error (a 400, an unknown id): the route exists
      ),
    );
  return optionalRoutes.get(path);
}

/** OEE of a workplace over the current shift when known, else the last 8 hours. */
async function oeeOf(workplaceId, since) {
  const query = {
    workplaceId,
    startDate: (since ?? new Date(Date.now() - SHIFT_MS)).toISOString(),
    endDate: new Date().toISOString(),
  };
  if (!(await hasRoute('oee', () => optional('/reports/overallEquipmentEfficiency', query)))) return null;
  const answer = await optional('/reports/overallEquipmentEfficiency', query);
  return answer?.properties ?? null;
}

async function quantitiesOf(operationId) {
  if (!(await hasRoute('quantities', () => optional(`/operations/${operationId}/quantitySummary`))))
    return null;
  return (await optional(`/operations/${operationId}/quantitySummary`))?.properties ?? null;
}

function progress(operation, summary) {
  const target = summary?.targetQuantity ?? operation.targetQuantity;
  if (!target) return null;
  const done = summary ? (summary.elements?.[0]?.quantities?.yield ?? summary.totalQuantity ?? 0) : null;
  if (done === null) return h('span', { class: 'muted' }, `target ${target} ${operation.quantityUnit ?? ''}`);
  const share = Math.max(0, Math.min(1, done / target));
  return h(
    'span',
    {},
    h('span', {}, `${done} / ${target} ${operation.quantityUnit ?? ''}`),
    h(
      'span',
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

// ---------------------------------------------------------------- plant overview

export async function overview(root) {
  await operatingStates();
  const [workplaces, operations] = await Promise.all([
    all('/workplaces', 'workplaces'),
    searchAll('/operations/search', 'operations', { operationPhaseIds: ACTIVE_PHASES }),
  ]);
  const byWorkplace = new Map(
    workplaces.map((w) => [
      w.id,
      { workplace: w, operation: undefined, oee: undefined, quantities: undefined },
    ]),
  );
  for (const operation of operations) {
    const entry = byWorkplace.get(operation.workplaceId);
    if (entry && !entry.operation) entry.operation = operation;
  }
  const tiles = new Map();
  const list = h('ul', { class: 'tiles', 'aria-label': 'Workplaces' });
  const counts = h('div', { class: 'summary', 'aria-live': 'polite' });
  const lazy = queue(4);
  // OEE and quantities are read for the tiles on screen only, four requests at a time: with 200
  // workplaces a first load stays a handful of reads, and scrolling fills in the rest.
  const onScreen = new Set();
  const outdated = new Set(byWorkplace.keys());
  const observer = new IntersectionObserver((changes) => {
    for (const change of changes) {
      const id = change.target.getAttribute('data-workplace-id');
      if (!change.isIntersecting) onScreen.delete(id);
      else {
        onScreen.add(id);
        if (outdated.delete(id)) details(id);
      }
    }
  });
  const refreshDetails = (id) => {
    if (onScreen.has(id)) details(id);
    else outdated.add(id);
  };

  const render = (id) => {
    const entry = byWorkplace.get(id);
    if (!entry) return;
    const { workplace, operation, oee, quantities } = entry;
    const state = workplace.operatingState;
    const colour = colourOf(state) ?? '#757575';
    const tile = h(
      'li',
      { class: 'tile', 'data-workplace-id': id, 'data-state': state?.code },
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
          h('span', { class: 'muted' }, workplace.description ?? ''),
          operation
            ? h('span', { class: 'operation' }, `${operation.number} · ${operation.operationPhaseId}`)
            : h('span', { class: 'muted' }, 'no operation in progress'),
          operation ? progress(operation, quantities) : null,
          oee ? h('span', { class: 'oee' }, `OEE ${percent(oee.oee)}`) : null,
        ),
      ),
    );
    const old = tiles.get(id);
    const focused = old?.contains(document.activeElement);
    if (old) observer.unobserve(old);
    observer.observe(tile);
    if (old) old.replaceWith(tile);
    // A live update must not take the keyboard focus away from the tile being looked at.
    if (focused) tile.querySelector('a')?.focus();
    else list.append(tile);
    tiles.set(id, tile);
  };
  const renderCounts = () => {
    const perState = new Map();
    for (const { workplace } of byWorkplace.values()) {
      const key = workplace.operatingState?.id;
      perState.set(key, (perState.get(key) ?? 0) + 1);
    }
    counts.replaceChildren(
      h('span', {}, `${byWorkplace.size} workplaces`),
      ...[...perState].map(([stateId, count]) => {
        const state = statesById.get(stateId);
        return h('span', {}, stateChip(state, state?.color), ` ${count}`);
      }),
    );
  };
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

  const refreshOperation = async (operationId, workplaceId) => {
    const operation = (await get(`/operations/${operationId}`)).properties;
    for (const entry of byWorkplace.values()) {
      if (entry.operation?.id === operationId && entry.workplace.id !== operation.workplaceId) {
        entry.operation = undefined;
        render(entry.workplace.id);
      }
    }
    const entry = byWorkplace.get(operation.workplaceId ?? workplaceId);
    if (!entry) return;
    if (ACTIVE_PHASES.includes(operation.operationPhaseId)) entry.operation = operation;
    else if (entry.operation?.id === operationId) entry.operation = undefined;
    render(entry.workplace.id);
    refreshDetails(entry.workplace.id);
  };
  const unsubscribe = subscribe(async (event) => {
    const data = event.data ?? {};
    if (event.eventType === 'WORKPLACE_OPERATING_STATE_CHANGED') {
      const entry = byWorkplace.get(data.workplaceId ?? event.objectId);
      if (!entry) return;
      entry.workplace = { ...entry.workplace, operatingState: data.currentOperatingState };
      render(entry.workplace.id);
      renderCounts();
    } else if (event.eventType === 'OPERATION_PHASE_CHANGED' || event.eventType === 'OPERATION_UPDATED') {
      await refreshOperation(event.objectId, data.workplaceId).catch(() => {});
    } else if (event.eventType === 'OPERATION_OUTPUT_QUANTITY_RECORDED') {
      const entry = [...byWorkplace.values()].find((e) => e.operation?.id === event.objectId);
      if (entry) refreshDetails(entry.workplace.id);
    } else if (event.eventType === 'WORKPLACE_CREATED' || event.eventType === 'WORKPLACE_UPDATED') {
      const workplace = (await get(`/workplaces/${event.objectId}`).catch(() => null))?.properties;
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
      byWorkplace.delete(event.objectId);
      const tile = tiles.get(event.objectId);
      if (tile) observer.unobserve(tile);
      tile?.remove();
      tiles.delete(event.objectId);
      renderCounts();
    }
  });
  return () => {
    observer.disconnect();
    unsubscribe();
  };
}

// ---------------------------------------------------------------- workplace page

export async function workplacePage(root, id) {
  await operatingStates();
  const charts = [];
  const load = async () => {
    const [workplace, history, devices, operations, staff, shifts] = await Promise.all([
      get(`/workplaces/${id}`),
      get(`/workplaces/${id}/recordedOperatingStates`, { limit: 100 }),
      all(`/workplaces/${id}/devices`, 'devices'),
      searchAll(
        '/operations/search',
        'operations',
        { workplaceIds: [id], operationPhaseIds: OPEN_PHASES },
        500,
      ),
      all('/staffMembers', 'staffMembers', { workplaceId: id }),
      get(`/workplaces/${id}/shifts`, { limit: 20 }).catch(() => null),
    ]);
    const w = workplace.properties;
    const now = Date.now();
    const shift = items(shifts, 'shifts').find(
      (s) => Date.parse(s.startDate) <= now && Date.parse(s.endDate) > now,
    );
    const oee = await oeeOf(id, shift ? new Date(shift.startDate) : undefined).catch(() => null);
    const records = items(history, 'recordedOperatingStates');
    const current = operations.filter((o) => ACTIVE_PHASES.includes(o.operationPhaseId));
    const next = operations
      .filter((o) => !ACTIVE_PHASES.includes(o.operationPhaseId))
      .sort((a, b) => String(a.startDate ?? '9').localeCompare(String(b.startDate ?? '9')))
      .slice(0, 10);
    const present = staff.filter(
      (s) => !(s.absences ?? []).some((a) => Date.parse(a.startDate) <= now && Date.parse(a.endDate) >= now),
    );
    /** A section of operations: their table, or `none` when there are none. */
    const operationsSection = (id, title, list, none) =>
      section(
        id,
        title,
        list.length
          ? table(
              ['operation', 'description', 'phase', 'target', 'start'],
              list.map((o) => [
                h('a', { href: `#/orders/${o.productionOrderId}` }, o.number),
                o.description ?? '',
                o.operationPhaseId,
                o.targetQuantity === null || o.targetQuantity === undefined
                  ? '–'
                  : `${o.targetQuantity} ${o.quantityUnit ?? ''}`,
                time(o.startDate),
              ]),
            )
          : h('p', { class: 'muted' }, none),
      );
    for (const chart of charts.splice(0)) chart.destroy();
    const chartBox = h('div', { class: 'charts' });
    fill(
      root,
      h('p', {}, h('a', { href: '#/' }, '← Plant')),
      h('h1', {}, `Workplace ${w.number}`, ' ', stateChip(w.operatingState, colourOf(w.operatingState))),
      h('p', { class: 'muted' }, w.description ?? ''),
      oee
        ? h(
            'p',
            { class: 'oee' },
            `OEE ${shift ? `this shift (${shift.name ?? ''})` : 'last 8 h'}: ${percent(oee.oee)} · availability ${percent(oee.availability)} · performance ${percent(oee.performance)} · quality ${percent(oee.quality)}`,
          )
        : null,
      section(
        'timeline',
        'Operating states',
        timeline(records),
        table(
          ['state', 'from', 'until'],
          records
            .slice(0, 10)
            .map((r) => [
              stateChip(r.operatingState, colourOf(r.operatingState)),
              time(r.startDate),
              time(r.endDate),
            ]),
        ),
      ),
      h(
        'div',
        { class: 'grid2' },
        operationsSection('current', 'Current operations', current, 'None in progress.'),
        operationsSection('next', 'Next operations', next, 'None planned.'),
      ),
      section(
        'staff',
        'Staff present',
        present.length
          ? h(
              'ul',
              {},
              present.map((s) => h('li', {}, `${s.firstName} ${s.lastName} (${s.staffNumber})`)),
            )
          : h('p', { class: 'muted' }, 'Nobody assigned and present.'),
      ),
      section('devices', 'Devices', devices.length ? chartBox : h('p', { class: 'muted' }, 'No devices.')),
    );
    for (const device of devices) {
      for (const quantity of (device.recordedPhysicalQuantities ?? []).slice(0, 4)) {
        const page = await get(`/devices/${device.id}/recordedTimeSeries`, { tag: quantity.tag, limit: 100 });
        const samples = items(page, 'recordedTimeSeries').reverse();
        const title = `${device.name}: ${quantity.name ?? quantity.tag}${quantity.unit ? ` (${quantity.unit})` : ''}`;
        const box = h('figure', { class: 'chart', 'data-tag': quantity.tag }, h('h3', {}, title));
        chartBox.append(box);
        if (samples.length === 0) {
          box.append(h('p', { class: 'muted' }, 'No samples recorded.'));
          continue;
        }
        const data = [samples.map((s) => Date.parse(s.timestamp) / 1000), samples.map((s) => s.value)];
        const width = Math.max(260, box.clientWidth - 16);
        charts.push(
          new uPlot(
            {
              width,
              height: 180,
              series: [{}, { label: quantity.tag, stroke: '#0b57d0', width: 2 }],
              axes: [{}, {}],
              legend: { show: true },
            },
            data,
            box,
          ),
        );
        box.setAttribute('aria-label', `${title}: ${samples.length} samples, latest ${samples.at(-1).value}`);
      }
    }
  };
  await load();
  let pending;
  const unsubscribe = subscribe((event) => {
    const data = event.data ?? {};
    if (event.objectId !== id && data.workplaceId !== id) return;
    clearTimeout(pending);
    pending = setTimeout(() => load().catch(() => {}), 300);
  });
  return () => {
    unsubscribe();
    clearTimeout(pending);
    for (const chart of charts) chart.destroy();
  };
}

/** The last 24 hours of recorded states as coloured segments. */
function timeline(records) {
  const end = Date.now();
  const start = end - 24 * 3600_000;
  const bar = h('div', {
    class: 'timeline',
    role: 'img',
    'aria-label': 'Operating states over the last 24 hours',
  });
  for (const record of [...records].reverse()) {
    const from = Math.max(start, Date.parse(record.startDate));
    const until = record.endDate ? Date.parse(record.endDate) : end;
    if (until <= start) continue;
    bar.append(
      h('span', {
        title: `${record.operatingState.code} ${record.operatingState.description} from ${time(record.startDate)}`,
        style: {
          width: `${((until - from) / (end - start)) * 100}%`,
          background: colourOf(record.operatingState) ?? '#757575',
        },
      }),
    );
  }
  return bar;
}

// ---------------------------------------------------------------- order page

export async function orderPage(root, id) {
  const load = async () => {
    const order = await get(`/productionOrders/${id}`, { embed: 'operations' });
    const o = order.properties;
    const operations = items(order._embedded ? order : null, 'operations');
    const rows = [];
    for (const op of operations) {
      const summary = await quantitiesOf(op.id).catch(() => null);
      rows.push([
        op.number,
        op.description ?? '',
        op.operationPhaseId,
        op.workplaceId ? h('a', { href: `#/workplaces/${op.workplaceId}` }, 'workplace') : '–',
        progress(op, summary) ?? '–',
        time(op.startDate),
        time(op.endDate),
      ]);
    }
    fill(
      root,
      h('p', {}, h('a', { href: '#/' }, '← Plant')),
      h('h1', {}, `Production order ${o.number}`),
      h(
        'p',
        { class: 'muted' },
        `${o.description ?? ''} · target ${o.targetQuantity ?? '–'} ${o.quantityUnit ?? ''} · delivery ${time(o.deliveryDate)}`,
      ),
      section(
        'ops',
        'Operations',
        table(['operation', 'description', 'phase', 'workplace', 'quantity', 'start', 'end'], rows),
      ),
    );
  };
  await load();
  return subscribe((event) => {
    if (event.objectId === id || event.data?.productionOrderId === id) load().catch(() => {});
    else if (event.objectType === 'OPERATION' && root.textContent.includes(event.data?.number ?? '\u0000'))
      load().catch(() => {});
  });
}

// ---------------------------------------------------------------- events page

export async function eventsPage(root) {
  const filters = { eventType: '', objectType: '', objectId: '' };
  const rows = h('tbody', {});
  const matches = (event) =>
    Object.entries(filters).every(([name, value]) => !value || event[name] === value);
  const row = (event) =>
    h(
      'tr',
      {},
      h('td', {}, time(event.recordedAt ?? event.timestamp)),
      h('td', {}, event.eventType),
      h('td', {}, event.objectType ?? ''),
      h('td', {}, event.objectId ?? ''),
      h('td', {}, h('pre', {}, JSON.stringify(event.data))),
    );
  const reload = async () => {
    const page = await get('/events', { limit: 50, ...filters });
    rows.replaceChildren(...items(page, 'events').map(row));
  };
  const field = (name, label, placeholder) =>
    h(
      'label',
      {},
      label,
      h('input', {
        name,
        placeholder,
        value: filters[name],
        onchange: (e) => {
          filters[name] = e.target.value.trim();
          reload().catch((error) => (status.textContent = error.message));
        },
      }),
    );
  const status = h('p', { class: 'error', role: 'alert' });
  fill(
    root,
    h('h1', {}, 'Events'),
    h(
      'form',
      { class: 'filters', 'aria-label': 'Filters', onsubmit: (e) => e.preventDefault() },
      field('eventType', 'Event type', 'WORKPLACE_OPERATING_STATE_CHANGED'),
      field('objectType', 'Object type', 'WORKPLACE'),
      field('objectId', 'Object id', 'uuid'),
    ),
    status,
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['recorded', 'event type', 'object type', 'object id', 'data'].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        rows,
      ),
    ),
  );
  await reload();
  return subscribe((event) => {
    if (!matches(event)) return;
    rows.prepend(row(event));
    while (rows.children.length > 200) rows.lastElementChild.remove();
  });
}

// ---------------------------------------------------------------- callbacks page

export async function callbacksPage(root) {
  const callbacks = await all('/callbacks', 'callbacks');
  const sections = [];
  for (const c of callbacks) {
    const deliveries =
      (await get(`/callbacks/${c.id}/deliveries`, { limit: 10 }))._embedded?.deliveries ?? [];
    const healthy = c.failedAttempts === 0 && c.discardedNotifications === 0;
    sections.push(
      h(
        'section',
        { class: 'chart', 'aria-label': `Callback ${c.eventType} ${c.url}` },
        h(
          'h2',
          {},
          `${c.eventType} → ${c.url}`,
          ' ',
          h(
            'span',
            { class: 'chip', style: { background: healthy ? '#1b7f3a' : '#b3261e', color: '#fff' } },
            healthy ? 'healthy' : 'failing',
          ),
        ),
        h(
          'p',
          { class: 'muted' },
          `last triggered ${time(c.lastTriggeredDate)} · last success ${time(c.lastSuccessfulDate)} · failed attempts ${c.failedAttempts} · discarded ${c.discardedNotifications}`,
        ),
        deliveries.length
          ? table(
              ['attempted', 'outcome', 'status', 'attempt', 'ms', 'error'],
              deliveries.map((d) => [
                time(d.attemptedAt),
                d.outcome,
                d.statusCode ?? '–',
                d.attempt,
                d.durationMs,
                d.error ?? '',
              ]),
            )
          : h('p', { class: 'muted' }, 'No delivery attempts yet.'),
      ),
    );
  }
  fill(
    root,
    h('h1', {}, 'Callbacks'),
    h('p', { class: 'muted' }, 'The callbacks registered by the signed-in client.'),
    ...(sections.length ? sections : [h('p', {}, 'No callbacks registered.')]),
  );
  return () => {};
}

// ---------------------------------------------------------------- connectors page

export const connectorsAvailable = () => hasRoute('connectors', () => optional('/connectors', { limit: 1 }));

export async function connectorsPage(root) {
  const load = async () => {
    const page = await optional('/connectors', { limit: 100 });
    if (page === null) {
      fill(root, h('h1', {}, 'Connectors'), h('p', {}, 'This service has no connectors.'));
      return;
    }
    const connectors = items(page, 'connectors');
    fill(
      root,
      h('h1', {}, 'Connectors'),
      connectors.length
        ? table(
            ['name', 'type', 'url', 'enabled', 'state', 'since', 'last error', 'messages'],
            connectors.map((c) => [
              c.name,
              c.type,
              c.url,
              c.enabled ? 'yes' : 'no',
              c.status?.state ?? '–',
              time(c.status?.since),
              c.status?.lastError ?? '',
              c.status?.messagesReceived ?? '–',
            ]),
          )
        : h('p', {}, 'No connectors.'),
    );
  };
  await load();
  return subscribe((event) => {
    if (event.objectType === 'CONNECTOR') load().catch(() => {});
  });
}
