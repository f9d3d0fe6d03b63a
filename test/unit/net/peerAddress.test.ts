import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressGroup } from '../../../src/net/peerAddress.ts';

test('IPv4 addresses count alone; IPv4-mapped IPv6 is the IPv4 address', () => {
  assert.equal(addressGroup('127.0.0.2'), '127.0.0.2');
  assert.equal(addressGroup('::ffff:127.0.0.2'), '127.0.0.2');
});

test('IPv6 addresses count by their /64, however they are written', () => {
  assert.equal(addressGroup('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(addressGroup('2001:0db8:0001:0002:ffff::1'), '2001:db8:1:2::/64');
  assert.equal(addressGroup('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(addressGroup('::1'), '0:0:0:0::/64');
  assert.equal(addressGroup('fe80::1%eth0'), 'fe80:0:0:0::/64');
});

test('no address is one group of its own', () => {
  assert.equal(addressGroup(undefined), 'unknown');
});
