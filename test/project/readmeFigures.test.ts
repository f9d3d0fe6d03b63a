// Benchmark figures live only in bench/README.md, and they are the ones the benchmarks wrote
// (bench/results/*-latest.json): after a benchmark run, `npm run bench:readme` renders them there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BEGIN, readmeFigures, renderFigures } from '../../bench/readme.ts';

test('bench/README.md shows exactly the figures of the results files (npm run bench:readme)', () => {
  const current = readmeFigures();
  assert.ok(current, 'bench/README.md has the generated benchmark block');
  assert.equal(current, renderFigures(), 'bench/README.md is out of date: run `npm run bench:readme`');
});

test('a figure edited by hand in bench/README.md is caught', () => {
  const readme = `intro\n${renderFigures().replace(/\d+ requests/, '1 requests')}\noutro`;
  assert.notEqual(readmeFigures(readme), renderFigures());
});

test('the project README holds no benchmark block and points at bench/README.md', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.ok(!readme.includes(BEGIN), 'README.md carries no figures of its own');
  assert.match(readme, /\]\(bench\/README\.md\)/);
});
