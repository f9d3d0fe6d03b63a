// Manufacturing variant rules (src/domain/manufacturingVariants.ts): their checks and the delay
// factor their forecast gives.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkManufacturingVariantRule,
  delayFactor,
  type ManufacturingVariantRuleInput,
} from '../../../src/domain/manufacturingVariants.ts';

const rule = (extra: Partial<ManufacturingVariantRuleInput> = {}): ManufacturingVariantRuleInput => ({
  origin: 'MANUAL_DATA_MAINTENANCE',
  criterion: 'MATERIAL_NUMBER',
  conditions: 'M-1',
  workplaceIds: [],
  tools: [],
  additionalConditions: null,
  forecastedDelays: null,
  ...extra,
});

const field = (input: ManufacturingVariantRuleInput) => {
  try {
    checkManufacturingVariantRule(input);
    return undefined;
  } catch (error) {
    return (error as { details?: { field?: string } }).details?.field ?? String(error);
  }
};

describe('checkManufacturingVariantRule', () => {
  test('a material number is any text; characteristics conditions must parse', () => {
    assert.equal(field(rule({ conditions: 'color=~x' })), undefined);
    assert.equal(
      field(rule({ criterion: 'MATERIAL_CHARACTERISTICS', conditions: 'color==black;width=lt=40' })),
      undefined,
    );
    assert.match(
      String(field(rule({ criterion: 'MATERIAL_CHARACTERISTICS', conditions: 'color=~x' }))),
      /conditions/,
    );
  });

  test('a tool id named twice is refused at its second place', () => {
    const tool = (id: string) => ({ id, name: null, description: null });
    assert.equal(field(rule({ tools: [tool('A'), tool('B')] })), undefined);
    assert.match(String(field(rule({ tools: [tool('A'), tool('B'), tool('A')] }))), /tools\[2\]\.id/);
  });
});

describe('delayFactor', () => {
  test('the inverse of availability times performance times quality', () => {
    const delays = {
      processAvailability: 0.1,
      performance: 0.2,
      qualityRate: 0.3,
      additionalSetupTime: null,
      intermediateSetupInterval: null,
      intermediateSetupTime: null,
      staffCapacityFactor: null,
      skillFactor: null,
    };
    assert.ok(Math.abs(delayFactor(delays) - 166.666_666_666_666_6) < 1e-9);
    assert.equal(delayFactor({ ...delays, processAvailability: 1, performance: 1, qualityRate: 0.5 }), 2);
  });
});
