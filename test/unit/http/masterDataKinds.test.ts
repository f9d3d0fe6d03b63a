import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MASTER_DATA_KINDS, masterDataKind } from '../../../src/http/masterDataKinds.ts';

test('each kind has one row, its own path and singular', () => {
  const kinds = MASTER_DATA_KINDS.map((kind) => kind.kind);
  assert.equal(new Set(kinds).size, kinds.length);
  assert.equal(new Set(MASTER_DATA_KINDS.map((kind) => kind.path)).size, kinds.length);
  for (const kind of MASTER_DATA_KINDS) {
    // A path names its kind, except where the v3 API names it otherwise (personnel states live at
    // /masterData/staffMemberStates).
    const named = kind.kind === 'personnelStates' ? 'staffMemberStates' : kind.kind;
    assert.ok(kind.path.endsWith(`/${named}`), kind.kind);
    assert.notEqual(kind.singular, kind.kind);
  }
});

test('a reference names a listed kind and a property no other part of the row shows', () => {
  for (const { reference, texts, attributes, kind } of MASTER_DATA_KINDS) {
    if (!reference) continue;
    assert.equal(masterDataKind(reference.kind).kind, reference.kind, kind);
    assert.ok(!(reference.property in texts) && !(reference.property in attributes), kind);
  }
});

test('an unlisted kind is a programming error', () => {
  assert.throws(() => masterDataKind('noSuchKind'), /noSuchKind/);
});
