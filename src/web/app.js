// @ts-check
// The dashboard's entry (docs/dashboard.md): sign-in, hash routing (#/, #/workplaces/{id},
// #/orders/{id}, #/events, #/callbacks, #/connectors) and the live connection.
import { ApiError, onSession, resume, signIn, signOut } from './api.js';
import { h } from './dom.js';
import { startLive, stopLive } from './live.js';
import { callbacksPage } from './views/callbacks.js';
import { connectorsAvailable, connectorsPage } from './views/connectors.js';
import { eventsPage } from './views/events.js';
import { orderPage } from './views/order.js';
import { overview } from './views/plant.js';
import { workplacePage } from './views/workplace.js';

/** @typedef {import('./types.js').Page} Page */

/**
 * An element of index.html by id (they are all there: a missing one is a bug of the page).
 * @param {string} id
 */
const $ = (id) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element;
};
const view = $('view');
/** @type {() => void} */
let leave = () => {};
let generation = 0;

/** @type {[RegExp, Page, string][]} */
const ROUTES = [
  [/^#?\/?$/, overview, 'Plant'],
  [/^#\/workplaces\/([\w-]+)$/, workplacePage, 'Workplace'],
  [/^#\/orders\/([\w-]+)$/, orderPage, 'Production order'],
  [/^#\/events$/, eventsPage, 'Events'],
  [/^#\/callbacks$/, callbacksPage, 'Callbacks'],
  [/^#\/connectors$/, connectorsPage, 'Connectors'],
];

async function route() {
  if (!$('sign-in').hidden) return;
  leave();
  leave = () => {};
  const current = ++generation;
  const hash = location.hash || '#/';
  for (const link of document.querySelectorAll('#nav a')) {
    const here =
      link.getAttribute('href') === hash ||
      (link.getAttribute('href') === '#/' && /^#\/workplaces|^#\/orders/.test(hash));
    if (here) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const match = ROUTES.map(([pattern, page, title]) => ({ found: pattern.exec(hash), page, title })).find(
    ({ found }) => found,
  );
  if (!match?.found) {
    view.replaceChildren(h('h1', {}, 'Not found'), h('p', {}, h('a', { href: '#/' }, 'Back to the plant')));
    return;
  }
  const { found, page, title } = match;
  document.title = `${title} · Bridge dashboard`;
  view.replaceChildren(h('p', { role: 'status' }, 'Loading…'));
  view.setAttribute('aria-busy', 'true');
  try {
    const stop = await page(view, found[1] ?? '');
    if (current !== generation) stop?.();
    else leave = stop ?? (() => {});
  } catch (error) {
    if (current === generation && !(error instanceof ApiError && error.status === 401))
      view.replaceChildren(
        h('h1', {}, title),
        h(
          'p',
          { class: 'error', role: 'alert' },
          `Could not load: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  } finally {
    view.removeAttribute('aria-busy');
  }
}

/** @param {boolean} signedIn */
function showSignedIn(signedIn) {
  $('sign-in').hidden = signedIn;
  $('nav').hidden = !signedIn;
  $('sign-out').hidden = !signedIn;
  if (signedIn) {
    startLive((text) => {
      $('live').textContent = text;
    });
    connectorsAvailable().then((present) => {
      $('nav-connectors').hidden = !present;
    });
    route();
  } else {
    stopLive();
    leave();
    leave = () => {};
    view.replaceChildren();
    $('live').textContent = '';
    $('client-id').focus();
  }
}

const signInForm = /** @type {HTMLFormElement} */ ($('sign-in-form'));
signInForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const clientId = /** @type {HTMLInputElement} */ ($('client-id'));
  const clientSecret = /** @type {HTMLInputElement} */ ($('client-secret'));
  const button = /** @type {HTMLButtonElement} */ (signInForm.querySelector('button[type="submit"]'));
  $('sign-in-error').textContent = '';
  button.disabled = true;
  try {
    await signIn(clientId.value.trim(), clientSecret.value);
    clientSecret.value = '';
  } catch (error) {
    $('sign-in-error').textContent =
      `Sign-in failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    button.disabled = false;
  }
});
$('sign-out').addEventListener('click', () => signOut());
window.addEventListener('hashchange', () => {
  route();
  $('main').focus({ preventScroll: true });
});
/** @type {boolean | undefined} */
let wasSignedIn;
onSession((signedIn) => {
  if (signedIn === wasSignedIn) return;
  wasSignedIn = signedIn;
  showSignedIn(signedIn);
});
const resumed = resume();
wasSignedIn = resumed;
showSignedIn(resumed);
