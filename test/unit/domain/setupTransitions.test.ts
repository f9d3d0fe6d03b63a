import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../../src/domain/errors.ts';
import {
  checkSetupTransitionRule,
  meets,
  parseConditions,
  type SetupTransitionRule,
  setupMatrix,
} from '../../../src/domain/setupTransitions.ts';

const characteristics = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('setup transition conditions', () => {
  test('; binds tighter than ,; numbers compare as numbers; == and != compare text', () => {
    const conditions = parseConditions('color==black;width=lt=40,color=="white"', 'field');
    assert.equal(meets(conditions, characteristics({ color: 'black', width: '39.5' })), true);
    assert.equal(meets(conditions, characteristics({ color: 'black', width: '40' })), false);
    assert.equal(meets(conditions, characteristics({ color: 'white' })), true);
    assert.equal(meets(parseConditions('color!=red', 'f'), characteristics({})), true);
    assert.equal(meets(parseConditions('width=ge=10', 'f'), characteristics({ width: 'wide' })), false);
    assert.equal(meets(parseConditions('width=le=10', 'f'), characteristics({})), false);
  });

  test('a part that is no comparison is refused naming the field', () => {
    for (const text of ['width<40', 'color', '==black', 'a==b;', ''])
      assert.throws(
        () => parseConditions(text, 'successorConditions'),
        (error) => error instanceof AppError && JSON.stringify(error).includes('successorConditions'),
        text,
      );
  });
});

describe('checkSetupTransitionRule', () => {
  const rule = {
    origin: 'MANUAL_DATA_MAINTENANCE',
    criterion: 'MATERIAL_NUMBER',
    predecessorConditions: 'A',
    successorConditions: 'B',
    setupTimeIncrement: null,
    setupTime: 5,
  } as const;
  test('each criterion takes its own time and refuses the other', () => {
    checkSetupTransitionRule(rule);
    assert.throws(() => checkSetupTransitionRule({ ...rule, setupTime: null }), AppError);
    assert.throws(() => checkSetupTransitionRule({ ...rule, setupTimeIncrement: 1 }), AppError);
    const byCharacteristics = {
      ...rule,
      criterion: 'MATERIAL_CHARACTERISTICS',
      predecessorConditions: 'a==1',
      successorConditions: 'b==2',
      setupTime: null,
      setupTimeIncrement: 3,
    } as const;
    checkSetupTransitionRule(byCharacteristics);
    assert.throws(() => checkSetupTransitionRule({ ...byCharacteristics, setupTime: 1 }), AppError);
    assert.throws(
      () => checkSetupTransitionRule({ ...byCharacteristics, predecessorConditions: 'A' }),
      AppError,
    );
  });
});

describe('setupMatrix', () => {
  const at = new Date(0);
  const stored = (fields: Partial<SetupTransitionRule>): SetupTransitionRule => ({
    id: 'r',
    workplaceGroupId: 'g',
    origin: 'MANUAL_DATA_MAINTENANCE',
    criterion: 'MATERIAL_NUMBER',
    predecessorConditions: '',
    successorConditions: '',
    setupTimeIncrement: null,
    setupTime: null,
    createdAt: at,
    updatedAt: at,
    ...fields,
  });
  const materials = [
    { number: 'B', characteristics: characteristics({ size: '2' }) },
    { number: 'A', characteristics: characteristics({ size: '1' }) },
  ];

  test('the latest number rule of a pair wins over earlier ones and over increments', () => {
    const matrix = setupMatrix(
      [
        stored({ predecessorConditions: 'A', successorConditions: 'B', setupTime: 7 }),
        stored({ predecessorConditions: 'A', successorConditions: 'B', setupTime: 8 }),
        stored({
          criterion: 'MATERIAL_CHARACTERISTICS',
          predecessorConditions: 'size=ge=1',
          successorConditions: 'size==2',
          setupTimeIncrement: 1,
        }),
        stored({ predecessorConditions: 'A', successorConditions: 'Z', setupTime: 9 }),
      ],
      materials,
    );
    assert.deepEqual(
      matrix.map((entry) => [
        entry.predecessorMaterial.number,
        entry.successorMaterial.number,
        entry.setupTime,
      ]),
      [
        ['A', 'B', 8],
        ['B', 'B', 1],
      ],
    );
  });

  test('no rules or no materials: no entries', () => {
    assert.deepEqual(setupMatrix([], materials), []);
    assert.deepEqual(
      setupMatrix([stored({ predecessorConditions: 'A', successorConditions: 'B', setupTime: 1 })], []),
      [],
    );
  });
});
