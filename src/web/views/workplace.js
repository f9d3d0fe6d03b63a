// @ts-check
// The workplace page (#/workplaces/{id}): state timeline, operations, staff, OEE and a chart per
// device tag. Events about the workplace redraw the text parts; the charts stay and take new
// samples as they are recorded (docs/dashboard.md, "Live updates").
import { all, get, items, positionQuery, searchAll } from '../api.js';
import { fill, h, percent, section, stateChip, table, time } from '../dom.js';
import { subscribe } from '../live.js';
import uPlot from '../vendor/uPlot.esm.js';
import { ACTIVE_PHASES, colourOf, OPEN_PHASES, oeeOf, openTickets, operatingStates } from './common.js';

/** @typedef {import('../types.js').Operation} Operation */

/**
 * Device samples are measurements, not changes of the plant: they have no events (docs/events.md),
 * so an open chart asks for the samples recorded after its newest one this often.
 */
const SAMPLE_POLL_MS = 3000;
/** Samples a chart keeps; older ones scroll out on the left. */
const CHART_POINTS = 500;

/**
 * @typedef {object} Chart
 * @property {string} href the device's recordedTimeSeries collection
 * @property {string} tag
 * @property {string} title
 * @property {HTMLElement} box
 * @property {uPlot | undefined} plot
 * @property {[number[], number[]]} data seconds since the epoch, values
 * @property {{paginationTimestamp: string, paginationIdentifier: string} | null} position newest sample read
 */

/**
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function workplacePage(root, id) {
  await operatingStates();
  const chartBox = h('div', { class: 'charts' });
  /** @type {Chart[]} */
  const charts = [];
  let devices = /** @type {any[]} */ ([]);

  const load = async () => {
    const [workplace, history, deviceList, operations, staff, shifts, tickets] = await Promise.all([
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
      openTickets(id).catch(() => []),
    ]);
    devices = deviceList;
    const w = workplace.properties;
    const now = Date.now();
    const shift = items(shifts, 'shifts').find(
      (s) => Date.parse(s.startDate) <= now && Date.parse(s.endDate) > now,
    );
    const oee = await oeeOf(id, shift ? new Date(shift.startDate) : undefined).catch(() => null);
    const records = items(history, 'recordedOperatingStates');
    const open = /** @type {Operation[]} */ (operations);
    const current = open.filter((o) => ACTIVE_PHASES.includes(o.operationPhaseId));
    const next = open
      .filter((o) => !ACTIVE_PHASES.includes(o.operationPhaseId))
      .sort((a, b) => String(a.startDate ?? '9').localeCompare(String(b.startDate ?? '9')))
      .slice(0, 10);
    const present = staff.filter(
      (s) =>
        !(s.absences ?? []).some(
          (/** @type {{startDate: string, endDate: string}} */ a) =>
            Date.parse(a.startDate) <= now && Date.parse(a.endDate) >= now,
        ),
    );
    /**
     * A section of operations: their table, or `none` when there are none.
     * @param {string} sectionId
     * @param {string} title
     * @param {Operation[]} list
     * @param {string} none
     */
    const operationsSection = (sectionId, title, list, none) =>
      section(
        sectionId,
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
    const oeeWindow =
      oee &&
      (shift && oee.from.getTime() === Date.parse(shift.startDate)
        ? `this shift (${shift.name ?? ''})`
        : `since ${oee.from.toLocaleTimeString()}`);
    fill(
      root,
      h('p', {}, h('a', { href: '#/' }, '← Plant')),
      h('h1', {}, `Workplace ${w.number}`, ' ', stateChip(w.operatingState, colourOf(w.operatingState))),
      h('p', { class: 'muted' }, w.description ?? ''),
      oee
        ? h(
            'p',
            { class: 'oee' },
            `OEE ${oeeWindow}: ${percent(oee.oee)} · availability ${percent(oee.availability)} · performance ${percent(oee.performance)} · quality ${percent(oee.quality)}`,
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
        'tickets',
        'Open tickets',
        tickets.length
          ? table(
              ['ticket', 'title', 'priority', 'state', 'raised'],
              tickets.map((ticket) => [
                ticket.number,
                ticket.title,
                ticket.priority,
                ticket.ticketStateId,
                time(ticket.creationDate),
              ]),
            )
          : h('p', { class: 'muted' }, 'No open tickets.'),
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
      // The same element every time: its charts are kept across redraws.
      section('devices', 'Devices', devices.length ? chartBox : h('p', { class: 'muted' }, 'No devices.')),
    );
  };

  /** One chart per device tag (up to four per device), from the last 100 samples. */
  const buildCharts = async () => {
    for (const chart of charts.splice(0)) chart.plot?.destroy();
    chartBox.replaceChildren();
    for (const device of devices) {
      for (const quantity of (device.recordedPhysicalQuantities ?? []).slice(0, 4)) {
        const href = `/devices/${device.id}/recordedTimeSeries`;
        const page = await get(href, { tag: quantity.tag, limit: 100 });
        const samples = items(page, 'recordedTimeSeries').reverse();
        const title = `${device.name}: ${quantity.name ?? quantity.tag}${quantity.unit ? ` (${quantity.unit})` : ''}`;
        const box = h('figure', { class: 'chart', 'data-tag': quantity.tag }, h('h3', {}, title));
        chartBox.append(box);
        /** @type {Chart} */
        const chart = {
          href,
          tag: quantity.tag,
          title,
          box,
          plot: undefined,
          data: [samples.map((s) => Date.parse(s.timestamp) / 1000), samples.map((s) => s.value)],
          position: page.pagination?.firstIdentifier ?? null,
        };
        charts.push(chart);
        draw(chart);
      }
    }
  };

  /** @param {Chart} chart */
  const draw = (chart) => {
    const count = chart.data[0].length;
    chart.box.setAttribute('data-samples', String(count));
    if (count === 0) {
      if (!chart.box.querySelector('p')) chart.box.append(h('p', { class: 'muted' }, 'No samples recorded.'));
      return;
    }
    chart.box.querySelector('p')?.remove();
    chart.box.setAttribute(
      'aria-label',
      `${chart.title}: ${count} samples, latest ${chart.data[1][count - 1]}`,
    );
    if (chart.plot) {
      chart.plot.setData(chart.data);
      return;
    }
    chart.plot = new uPlot(
      {
        width: Math.max(260, chart.box.clientWidth - 16),
        height: 180,
        series: [{}, { label: chart.tag, stroke: '#0b57d0', width: 2 }],
        axes: [{}, {}],
        legend: { show: true },
      },
      chart.data,
      chart.box,
    );
  };

  /**
   * Appends the samples recorded after the chart's newest one (newer pages while they are full).
   * @param {Chart} chart
   */
  const refreshChart = async (chart) => {
    for (let pages = 0; pages < 10; pages++) {
      const query = chart.position
        ? { tag: chart.tag, limit: 100, paginationDirection: 'PREVIOUS', ...positionQuery(chart.position) }
        : { tag: chart.tag, limit: 100 };
      const page = await get(chart.href, query);
      const samples = items(page, 'recordedTimeSeries').sort((a, b) =>
        a.timestamp.localeCompare(b.timestamp),
      );
      if (page.pagination?.firstIdentifier) chart.position = page.pagination.firstIdentifier;
      const last = chart.data[0].at(-1) ?? -Infinity;
      let added = false;
      for (const sample of samples) {
        const x = Date.parse(sample.timestamp) / 1000;
        // A sample recorded late with an older time is left out: the line runs left to right.
        if (x <= last && chart.data[0].length > 0) continue;
        chart.data[0].push(x);
        chart.data[1].push(sample.value);
        added = true;
      }
      if (chart.data[0].length > CHART_POINTS)
        chart.data = [chart.data[0].slice(-CHART_POINTS), chart.data[1].slice(-CHART_POINTS)];
      if (added) draw(chart);
      if (samples.length < 100) return;
    }
  };

  let refreshing = false;
  const refreshCharts = async () => {
    if (refreshing) return;
    refreshing = true;
    try {
      for (const chart of charts) await refreshChart(chart);
    } catch {
      // the next round tries again
    } finally {
      refreshing = false;
    }
  };

  await load();
  await buildCharts();
  const poll = setInterval(refreshCharts, SAMPLE_POLL_MS);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pending;
  const unsubscribe = subscribe((event) => {
    const data = event.data ?? {};
    const deviceChanged =
      event.objectType === 'DEVICE' && devices.some((device) => device.id === event.objectId);
    if (event.objectId !== id && data.workplaceId !== id && !deviceChanged) return;
    clearTimeout(pending);
    pending = setTimeout(() => {
      load()
        .then(() =>
          deviceChanged || event.eventType.startsWith('DEVICE_') ? buildCharts() : refreshCharts(),
        )
        .catch(() => {});
    }, 300);
  });
  return () => {
    unsubscribe();
    clearTimeout(pending);
    clearInterval(poll);
    for (const chart of charts) chart.plot?.destroy();
  };
}

/**
 * The last 24 hours of recorded states as coloured segments.
 * @param {any[]} records newest first
 */
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
