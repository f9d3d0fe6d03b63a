import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeNetworkFailure, hostOf } from '../../../src/domain/networkFailures.ts';

test('connection failures are named by kind, without addresses or ports', () => {
  const cases: [string, string][] = [
    ['connect ECONNREFUSED 127.0.0.1:22', 'connection refused'],
    ['connect ECONNREFUSED ::1:8080', 'connection refused'],
    ['getaddrinfo ENOTFOUND mes.plant.internal', 'the host name could not be resolved'],
    ['Connect Timeout Error (attempted address: 10.1.2.3:443, timeout: 10000ms)', 'no answer in time'],
    ['no answer within 10000 ms', 'no answer in time'],
    ['connect EHOSTUNREACH 192.168.7.20:1883', 'host unreachable'],
    ['read ECONNRESET', 'connection closed by the peer'],
    ['other side closed', 'connection closed by the peer'],
  ];
  for (const [text, described] of cases) assert.equal(describeNetworkFailure(text), described, text);
});

test('a TLS failure keeps its reason, not the address', () => {
  assert.equal(
    describeNetworkFailure('self-signed certificate in certificate chain (10.0.0.8:8443)'),
    'TLS failed: self-signed certificate in certificate chain',
  );
  assert.equal(
    describeNetworkFailure(
      "Hostname/IP does not match certificate's altnames: IP: 10.0.0.8 is not in the cert's list",
    ),
    "TLS failed: Hostname/IP does not match certificate's altnames: IP: is not in the cert's list",
  );
});

test('an address the client named itself (its URL host) is kept', () => {
  assert.equal(
    describeNetworkFailure('address 169.254.169.254 is not allowed for callbacks', '169.254.169.254'),
    'address 169.254.169.254 is not allowed for callbacks',
  );
  assert.equal(
    describeNetworkFailure(
      'address 10.0.0.5 of receiver.example is not allowed for callbacks',
      'receiver.example',
    ),
    'address of receiver.example is not allowed for callbacks',
  );
  assert.equal(
    describeNetworkFailure('broker [fe80::1]:1883 went away', 'fe80::1'),
    'broker [fe80::1]:1883 went away',
  );
  assert.equal(hostOf('http://[::1]:8080/hook'), '::1');
  assert.equal(hostOf('not a url'), '');
});

test('other text is kept without addresses; null stays null', () => {
  assert.equal(describeNetworkFailure('HTTP 503'), 'HTTP 503');
  assert.equal(
    describeNetworkFailure('address 10.0.0.5 of receiver.example is not allowed for callbacks'),
    'address of receiver.example is not allowed for callbacks',
  );
  assert.equal(
    describeNetworkFailure('broker at [fe80::1%eth0]:1883 refused the session'),
    'broker at refused the session',
  );
  assert.equal(describeNetworkFailure(null), null);
});
