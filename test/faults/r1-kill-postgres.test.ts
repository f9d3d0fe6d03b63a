// R1 (docs/quality.md) on PostgreSQL: kill -9 of the service with notifications pending, restart,
// a second kill -9 during the catch-up, restart: every notification arrives.
import { test } from 'node:test';
import { BACKENDS } from '../support/databases.ts';
import { R1_EVENTS, runR1 } from './r1.ts';

test(
  `R1 [postgres]: ${R1_EVENTS.postgres} pending notifications survive kill -9 twice`,
  { skip: !BACKENDS.includes('postgres') && 'PostgreSQL not reachable', timeout: 600_000 },
  () => runR1('postgres'),
);
