// The README's benchmark figures are the ones the benchmarks wrote (bench/results/*-latest.json):
// after a benchmark run, `npm run bench:readme` renders them into README.md.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readmeFigures, renderFigures } from '../../bench/readme.ts';

test('the README shows exactly the figures of the results files (npm run bench:readme)', () => {
  const current = readmeFigures();
  assert.ok(current, 'README.md has the generated benchmark block');
  assert.equal(current, renderFigures(), 'README.md is out of date: run `npm run bench:readme`');
});

test('a figure edited by hand in the README is caught', () => {
  const readme = `intro\n${renderFigures().replace(/\d+ requests/, '1 requests')}\noutro`;
  assert.notEqual(readmeFigures(readme), renderFigures());
});
