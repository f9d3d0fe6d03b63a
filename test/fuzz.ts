// `npm run fuzz`: a long fuzz run with figures. Settings: FUZZ_RUNS (default 5000), FUZZ_SEED
// (default random, printed), FUZZ_BACKEND (pglite or postgres, default pglite).

import { startTestApp } from './support/app.ts';
import type { Backend } from './support/databases.ts';
import { fuzz } from './support/fuzz.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 5000);
const seed =
  process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
const backend = (process.env.FUZZ_BACKEND ?? 'pglite') as Backend;
if (
  !Number.isInteger(runs) ||
  runs < 1 ||
  !Number.isInteger(seed) ||
  !['pglite', 'postgres'].includes(backend)
) {
  console.error(
    'FUZZ_RUNS must be a positive integer, FUZZ_SEED an integer, FUZZ_BACKEND pglite or postgres',
  );
  process.exit(2);
}
console.log(`fuzz: seed ${seed}, ${runs} requests, ${backend}`);
const app = await startTestApp(backend, { BRIDGE_DELIVERY_ENABLED: 'false' });
try {
  const figures = await fuzz(app, { seed, runs, log: (line) => console.log(`  ${line}`) });
  console.log(`requests:        ${figures.requests} in ${figures.seconds} s`);
  console.log(`operations:      ${figures.operations} of ${figures.operationsTotal} covered`);
  if (figures.uncovered.length > 0) console.log(`not covered:     ${figures.uncovered.join(', ')}`);
  const byStatus = Object.entries(figures.byStatus).sort(([a], [b]) => a.localeCompare(b));
  console.log(
    `2xx/3xx:         ${byStatus
      .filter(([s]) => Number(s) < 400)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  console.log(
    `4xx by status:   ${byStatus
      .filter(([s]) => Number(s) >= 400 && Number(s) < 500)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  console.log(`5xx:             ${figures.serverErrors}`);
  console.log(`problems:        ${figures.problems.length}`);
  const distinct = new Map<string, number>();
  for (const problem of figures.problems) {
    const key = problem.replace(/ -> .*?:/, ' ->').slice(0, 240);
    distinct.set(key, (distinct.get(key) ?? 0) + 1);
  }
  for (const problem of figures.problems.slice(0, 40)) console.log(`  - ${problem.slice(0, 400)}`);
  process.exitCode = figures.problems.length === 0 ? 0 : 1;
} finally {
  await app.close();
}
