// src/delivery/cursors.ts: a held callback's cursor in memory. Events read are numbered on from
// the last sequence and stay out until their outcomes are recorded; the stored cursor may only
// move to just before the oldest event still out, so a crash sends again what was out, nothing else.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CursorNotification, LeasedCallback } from '../../../src/db/repositories/deliveryCursors.ts';
import { Cursor, Cursors } from '../../../src/delivery/cursors.ts';

const leased = (callbackId: string, fields: Partial<LeasedCallback> = {}): LeasedCallback => ({
  callbackId,
  deliveredPosition: 10,
  lastSequence: 3,
  maxUnconfirmedMessages: 50,
  untried: false,
  ...fields,
});

/** An event read at `position` (its sequence is the cursor's to give). */
const read = (callbackId: string, position: number): CursorNotification => ({
  position,
  sequence: 0,
  attempt: 1,
  callbackId,
  url: 'http://127.0.0.1:1/hook',
  eventName: null,
  signingSecret: null,
  maxRedeliverAttempts: 3,
  discardedSinceSuccess: 0,
  event: {
    id: `event-${position}`,
    eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
    eventName: null,
    objectType: 'WORKPLACE',
    objectId: null,
    dataJson: '{}',
    timestamp: '2026-01-01T00:00:00.000Z',
  },
});

describe('Cursor', () => {
  test('starts where the lease says: read and stored at the delivered position', () => {
    const cursor = new Cursor(leased('a', { untried: true }));
    assert.deepEqual(
      [cursor.readPosition, cursor.readSequence, cursor.storedPosition, cursor.untried],
      [10, 3, 10, true],
    );
    assert.deepEqual([cursor.aheadCount, cursor.outCount, cursor.sending], [0, 0, 0]);
  });

  test('numbers what it reads on from the last sequence and hands it out oldest first', () => {
    const cursor = new Cursor(leased('a'));
    cursor.take([read('a', 12), read('a', 15)]);
    assert.deepEqual([cursor.readPosition, cursor.readSequence], [15, 5]);
    assert.deepEqual([cursor.aheadCount, cursor.outCount], [2, 2]);
    const first = cursor.next();
    assert.deepEqual([first?.position, first?.sequence], [12, 4]);
    assert.deepEqual([cursor.aheadCount, cursor.outCount], [1, 2], 'sent is still out');
    assert.equal(cursor.next()?.sequence, 5);
    assert.equal(cursor.next(), undefined);
  });

  test('the stored cursor moves to just before the oldest event still out', () => {
    const cursor = new Cursor(leased('a'));
    cursor.take([read('a', 12), read('a', 15), read('a', 20)]);
    // The newer two ended first: the cursor may not pass 12, which is still out.
    assert.deepEqual(cursor.finish([15, 20]), { callbackId: 'a', position: 11, sequence: 3 });
    assert.equal(cursor.outCount, 1);
    // Then 12: nothing is out, so up to what was read.
    assert.deepEqual(cursor.finish([12]), { callbackId: 'a', position: 20, sequence: 6 });
    assert.equal(cursor.outCount, 0);
  });

  test('passed() moves the read position to a head beyond it, never back', () => {
    const cursor = new Cursor(leased('a'));
    cursor.passed(30);
    assert.equal(cursor.readPosition, 30);
    cursor.passed(25);
    assert.equal(cursor.readPosition, 30);
    assert.equal(cursor.readSequence, 3, 'no event read, no number given');
    assert.deepEqual(cursor.finish([]), { callbackId: 'a', position: 30, sequence: 3 });
  });

  test('skipped() goes on from where the skip ended, numbering after the skipped ones', () => {
    const cursor = new Cursor(leased('a'));
    cursor.skipped({ position: 400, sequence: 90 });
    cursor.take([read('a', 401)]);
    assert.equal(cursor.next()?.sequence, 91);
  });
});

describe('Cursors', () => {
  test('reconcile adds what is held, drops what is not, and keeps the state of what stays', () => {
    const cursors = new Cursors();
    cursors.reconcile([leased('a'), leased('b')], new Map());
    const a = cursors.get('a') as Cursor;
    a.take([read('a', 11)]);
    cursors.reconcile([leased('a', { maxUnconfirmedMessages: 7 }), leased('c')], new Map());
    assert.deepEqual([...cursors.all()].map((cursor) => cursor.callbackId).sort(), ['a', 'c']);
    assert.equal(cursors.get('a'), a, 'the same cursor, with what it had read');
    assert.deepEqual([a.readPosition, a.outCount, a.maxUnconfirmedMessages], [11, 1, 7]);
    assert.equal(cursors.get('b'), undefined);
  });

  test('busy: the callbacks with events out, which the lease step must not give back', () => {
    const cursors = new Cursors();
    cursors.reconcile([leased('a'), leased('b')], new Map());
    cursors.get('b')?.take([read('b', 11)]);
    assert.deepEqual(cursors.busy(), ['b']);
  });

  test('idle positions: passed without a match, nothing out, not being recorded', () => {
    const cursors = new Cursors();
    cursors.reconcile([leased('a'), leased('b'), leased('c'), leased('d')], new Map());
    cursors.get('a')?.passed(40); // idle beyond its stored cursor
    cursors.get('b')?.passed(40);
    cursors.get('b')?.take([read('b', 41)]); // has one out
    cursors.get('c')?.passed(40); // its outcomes are being written
    // d has not moved: nothing worth storing
    assert.deepEqual([...cursors.idlePositions(new Set(['c']))], [['a', 40]]);
  });

  test('an idle position stored by the lease step becomes the stored cursor', () => {
    const cursors = new Cursors();
    cursors.reconcile([leased('a')], new Map());
    cursors.get('a')?.passed(40);
    const idle = cursors.idlePositions(new Set());
    cursors.reconcile([leased('a')], idle);
    assert.equal(cursors.get('a')?.storedPosition, 40);
    assert.deepEqual([...cursors.idlePositions(new Set())], [], 'stored: no longer worth storing');
  });

  test('drop forgets a callback: held again, it starts from its stored cursor', () => {
    const cursors = new Cursors();
    cursors.reconcile([leased('a')], new Map());
    cursors.get('a')?.take([read('a', 11), read('a', 12)]);
    cursors.drop('a');
    assert.equal(cursors.get('a'), undefined);
    cursors.reconcile([leased('a')], new Map());
    assert.deepEqual([cursors.get('a')?.readPosition, cursors.get('a')?.outCount], [10, 0]);
  });
});
