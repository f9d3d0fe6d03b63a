// R1 (docs/quality.md) on PGlite (BRIDGE_DATA_DIR): kill -9 of the service with notifications
// pending, restart, a second kill -9 during the catch-up, restart: every notification arrives.
import { test } from 'node:test';
import { R1_EVENTS, runR1 } from './r1.ts';

test(
  `R1 [pglite]: ${R1_EVENTS.pglite} pending notifications survive kill -9 twice`,
  { timeout: 600_000 },
  () => runR1('pglite'),
);
