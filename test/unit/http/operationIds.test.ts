// The operationIds client generators name their methods by (src/http/operationIds.ts): derived from
// a collection's name and the owners in its path, or from the method and path of any other route.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fallbackOperationId, operationIds } from '../../../src/http/operationIds.ts';

describe('operationIds', () => {
  test('a top-level collection: its name in the plural for lists, singular for one item', () => {
    const ids = operationIds('/workplaces', 'workplaces');
    assert.deepEqual(
      [ids.list, ids.search, ids.get, ids.create, ids.replace, ids.delete],
      [
        'listWorkplaces',
        'searchWorkplaces',
        'getWorkplace',
        'createWorkplace',
        'replaceWorkplace',
        'deleteWorkplace',
      ],
    );
  });

  test('each segment before a parameter names an owner', () => {
    assert.equal(operationIds('/workplaces/:id/shifts', 'shifts').list, 'listWorkplaceShifts');
    assert.equal(
      operationIds('/tickets/:id/activities/:activityId/remarks', 'remarks').get,
      'getTicketActivityRemark',
    );
  });

  test('singulars: -ies, -ss and Series', () => {
    assert.equal(operationIds('/x', 'activities').get, 'getActivity');
    assert.equal(operationIds('/x', 'access').get, 'getAccess');
    assert.equal(operationIds('/x', 'recordedTimeSeries').get, 'getRecordedTimeSeries');
  });

  test('a command is named by its path, without repeating the item', () => {
    const ids = operationIds('/workplaces', 'workplaces');
    assert.equal(ids.command('operatingState/:operatingStateId'), 'changeWorkplaceOperatingState');
    assert.equal(operationIds('/tickets', 'tickets').command(':ticketStateId'), 'changeTicketState');
  });
});

describe('fallbackOperationId', () => {
  test('the method and the path below the API version, parameters as By<name>', () => {
    assert.equal(
      fallbackOperationId('GET', '/ff/api/v2/workplaces/:id/history', '/ff'),
      'getWorkplacesByIdHistory',
    );
    assert.equal(
      fallbackOperationId(['POST', 'HEAD'], '/api/v2/devices/:id/recordedTimeSeries', ''),
      'postDevicesByIdRecordedTimeSeries',
    );
  });

  test('the API root is Root', () => {
    assert.equal(fallbackOperationId('GET', '/api/v2/', ''), 'getRoot');
  });
});
