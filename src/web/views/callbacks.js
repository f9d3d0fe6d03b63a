// @ts-check
// The callbacks page (#/callbacks): the signed-in client's callbacks, their health and last deliveries.
import { all, get } from '../api.js';
import { fill, h, table, time } from '../dom.js';

/** @param {HTMLElement} root */
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
              deliveries.map((/** @type {any} */ d) => [
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
