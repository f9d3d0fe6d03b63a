import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BOOKING_FAILURE,
  COMMAND_TYPES,
  failureOf,
  RESULT_CODES,
  unsupported,
} from '../../../src/domain/commands.ts';
import { AppError } from '../../../src/domain/errors.ts';

test('the command types and result codes of the v3 model, once each', () => {
  assert.equal(new Set(COMMAND_TYPES).size, COMMAND_TYPES.length);
  assert.equal(COMMAND_TYPES.length, 24);
  assert.ok(COMMAND_TYPES.includes('OPERATION_PHASE'));
  assert.ok(COMMAND_TYPES.includes('STAFF_MEMBER_TIME_ATTENDANCE_BREAK_REVISION_INSERT'));
  assert.deepEqual([...RESULT_CODES].sort(), [
    'RC_BOOKING_FAILURE',
    'RC_ENHANCED_SUCCESS',
    'RC_GENERIC_REQ_CANCEL_SUCCEED',
    'RC_GENERIC_REQ_NO_MSG_LISTENER_REGISTERED',
    'RC_GENERIC_REQ_UNKNOWN_FAILURE',
    'RC_SIMPLE_FAILURE',
    'RC_SIMPLE_SUCCESS',
  ]);
});

test('a refusal becomes a booking failure that keeps its code and parameters', () => {
  const refusal = new AppError('INVALID_TRANSITION', { resource: 'operation', current: 'RELEASED' });
  assert.deepEqual(failureOf(refusal), {
    resultCode: BOOKING_FAILURE,
    resultDetail: { code: 'INVALID_TRANSITION', resource: 'operation', current: 'RELEASED' },
  });
});

test('an unsupported type is a BAD_REQUEST naming the type', () => {
  const error = unsupported('MACHINE_STATE');
  assert.equal(error.code, 'BAD_REQUEST');
  assert.match(String(error.params.detail), /MACHINE_STATE/);
});
