// Every event type is reachable (docs/events.md): one row per event type of docs/events.md (and EXTERNAL)
// with the API action that emits it. Each row runs its action through the real HTTP stack and
// checks the stored event: type, objectType, objectId and the keys of its data. The table must
// cover the catalogue in src/domain/events.ts exactly, so a new type cannot go without an action.
// Rows run in order and build on each other's plant (a forecast exists before it becomes obsolete).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { EVENT_OBJECT_TYPES, EXTERNAL_EVENT_TYPE } from '../../src/domain/events.ts';
import { bookCounterReading } from '../../src/services/connectorCounters.ts';
import { claimConnectors, reportStaleValues } from '../../src/services/connectorService.ts';
import {
  createOperation,
  createStaffMember,
  createWorkplace,
  describeEachBackend,
  json,
  type RequestOptions,
  type TestApp,
} from '../support/app.ts';
import { waitFor } from '../support/faults.ts';

const API = '/api/v2';
const FUTURE = { startDate: '2099-05-01T06:00:00.000Z', endDate: '2099-05-01T14:00:00.000Z' };

interface Plant {
  workplaceId: string;
  operationId: string;
  staffMemberId: string;
  /** Ids made by earlier rows, for later rows (e.g. the order a row creates and the next deletes). */
  made: Record<string, string>;
}

interface Row {
  eventType: string;
  /** What emits it, as docs/events.md says. */
  action: string;
  /** Runs the action; returns the objectId the event must carry (null for condensed events). */
  run: (t: TestApp, plant: Plant) => Promise<string | null>;
  /** The keys of the event's data. */
  data: string[];
  /** objectType when the catalogue does not fix one (RESOURCES_UPDATED, EXTERNAL). */
  objectType?: string;
}

/** Sends a request that must succeed; returns the answer's properties. */
async function ok(t: TestApp, options: RequestOptions) {
  const response = await t.request(options);
  assert.ok(response.statusCode < 300, `${options.method ?? 'GET'} ${options.url}: ${response.body}`);
  return response.statusCode === 204 ? {} : json(response).properties;
}

const RESULT = ['workplaceId', 'startDate', 'endDate', 'setupStartDate', 'setupEndDate'].concat([
  'processingStartDate',
  'processingEndDate',
  'fixed',
]);
const ORDER = ['productionOrderId', 'number', 'description', 'material', 'targetQuantity'].concat([
  'quantityUnit',
  'basicStartDate',
  'basicEndDate',
  'deliveryDate',
  'split',
  'erpContextId',
  'scheduledStartDate',
  'scheduledEndDate',
]);
const OPERATION = [
  'operationId',
  'number',
  'description',
  'productionOrderId',
  'sequence',
  'material',
  'workplaceId',
  'workplaceGroupId',
  'targetQuantity',
  'quantityUnit',
  'targetTimePerUnit',
  'targetProcessingTime',
  'targetSetupTime',
  'targetTeardownTime',
  'targetMoveTime',
  'targetWaitTime',
  'components',
  'productionResourcesAndTools',
  'split',
  'erpContextId',
  'scheduledDates',
  'alternativeWorkplaceIds',
  'materialCharacteristics',
  'userFields',
  'targetMachineCycleTime',
  'unitsPerMachineCycle',
  'manufacturingVariants',
  'requiredTools',
  'requiredSkills',
  'startDate',
  'endDate',
];
const WORKPLACE = ['workplaceId', 'number', 'description', 'isManualWorkplace', 'capacityGroupId'].concat([
  'productionLineId',
]);
const STAFF = ['staffMemberId', 'staffNumber', 'firstName', 'lastName', 'email', 'qualifications'].concat([
  'assignedWorkplaceIds',
  'shiftId',
  'absences',
]);
const TOOL = ['toolId', 'number', 'description', 'lifespan'];
const DOCUMENT = ['documentId', 'name', 'folder', 'description', 'contentType', 'size', 'version'];
const MAINTENANCE = ['scheduledMaintenanceId', 'workplaceId', 'description', 'maintenanceType'].concat([
  'startDate',
  'endDate',
]);
const SETUP_RULE = ['setupTransitionRuleId', 'workplaceGroupId', 'origin', 'criterion'].concat([
  'predecessorConditions',
  'successorConditions',
  'setupTimeIncrement',
  'setupTime',
]);
const VARIANT_RULE = ['manufacturingVariantRuleId', 'workplaceGroupId', 'origin', 'criterion'].concat([
  'conditions',
  'workplaceIds',
  'tools',
  'additionalConditions',
  'forecastedDelays',
]);
const changed = (keys: string[]) => [...keys, 'changedProperties'];
const TICKET = ['ticketId', 'number', 'title', 'priority', 'ticketStateId', 'ticketClassId'].concat([
  'workplaceId',
  'operationId',
  'materialNumber',
  'shiftId',
]);
const TICKET_ACTIVITY = ['ticketId', 'activityId', 'title', 'editor', 'ticketActivityStateId', 'dueDate'];
const ATTACHMENT = ['ticketId', 'attachmentId', 'name', 'description', 'mimeType', 'size'];
const ACTIVITY_ATTACHMENT = [...ATTACHMENT, 'activityId'];
const TICKETS = `${API}/tickets`;

/** PUT .../data with raw bytes. */
async function uploadAttachment(t: TestApp, url: string) {
  const response = await t.request({
    method: 'PUT',
    url: `${url}/data?name=photo.txt`,
    body: 'bytes',
    headers: { 'content-type': 'text/plain' },
  });
  assert.equal(response.statusCode, 200, response.body);
}

const TICKET_ROWS: Row[] = [
  {
    eventType: 'TICKET_CREATED',
    action: 'POST /tickets',
    data: TICKET,
    run: async (t, { made, workplaceId }) => {
      made.ticket = (
        await ok(t, { method: 'POST', url: TICKETS, body: { title: 'Jam', priority: 'LOW', workplaceId } })
      ).id;
      return made.ticket ?? null;
    },
  },
  {
    eventType: 'TICKET_UPDATED',
    action: 'PUT /tickets/{id}',
    data: changed(TICKET),
    run: async (t, { made, workplaceId }) => {
      const body = { title: 'Jam', priority: 'HIGH', workplaceId };
      await ok(t, { method: 'PUT', url: `${TICKETS}/${made.ticket}`, body });
      return made.ticket ?? null;
    },
  },
  {
    eventType: 'TICKET_STATE_CHANGED',
    action: 'POST /tickets/{id}/{ticketStateId}',
    data: [...TICKET, 'previousTicketStateId'],
    run: async (t, { made }) => {
      await ok(t, { method: 'POST', url: `${TICKETS}/${made.ticket}/IN_PROGRESS` });
      return made.ticket ?? null;
    },
  },
  {
    eventType: 'TICKET_ATTACHMENT_CREATED',
    action: 'POST /tickets/{id}/attachments',
    data: ATTACHMENT,
    run: async (t, { made }) => {
      const url = `${TICKETS}/${made.ticket}/attachments`;
      made.ticketAttachment = (await ok(t, { method: 'POST', url, body: { description: 'photo' } })).id;
      return made.ticketAttachment ?? null;
    },
  },
  {
    eventType: 'TICKET_ATTACHMENT_UPDATED',
    action: 'PUT /tickets/{id}/attachments/{attachmentId}/data',
    data: changed(ATTACHMENT),
    run: async (t, { made }) => {
      await uploadAttachment(t, `${TICKETS}/${made.ticket}/attachments/${made.ticketAttachment}`);
      return made.ticketAttachment ?? null;
    },
  },
  {
    eventType: 'TICKET_ATTACHMENT_DELETED',
    action: 'DELETE /tickets/{id}/attachments/{attachmentId}',
    data: ATTACHMENT,
    run: async (t, { made }) => {
      await ok(t, {
        method: 'DELETE',
        url: `${TICKETS}/${made.ticket}/attachments/${made.ticketAttachment}`,
      });
      return made.ticketAttachment ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_CREATED',
    action: 'POST /tickets/{id}/activities',
    data: TICKET_ACTIVITY,
    run: async (t, { made }) => {
      const url = `${TICKETS}/${made.ticket}/activities`;
      made.ticketActivity = (await ok(t, { method: 'POST', url, body: { title: 'Replace belt' } })).id;
      return made.ticketActivity ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_UPDATED',
    action: 'PUT /tickets/{id}/activities/{activityId}',
    data: changed(TICKET_ACTIVITY),
    run: async (t, { made }) => {
      const url = `${TICKETS}/${made.ticket}/activities/${made.ticketActivity}`;
      await ok(t, { method: 'PUT', url, body: { title: 'Replace the belt' } });
      return made.ticketActivity ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_STATE_CHANGED',
    action: 'POST /tickets/{id}/activities/{activityId}/{ticketActivityStateId}',
    data: [...TICKET_ACTIVITY, 'previousTicketActivityStateId'],
    run: async (t, { made }) => {
      await ok(t, {
        method: 'POST',
        url: `${TICKETS}/${made.ticket}/activities/${made.ticketActivity}/DONE`,
      });
      return made.ticketActivity ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_ATTACHMENT_CREATED',
    action: 'POST /tickets/{id}/activities/{activityId}/attachments',
    data: ACTIVITY_ATTACHMENT,
    run: async (t, { made }) => {
      const url = `${TICKETS}/${made.ticket}/activities/${made.ticketActivity}/attachments`;
      made.activityAttachment = (await ok(t, { method: 'POST', url, body: { description: 'scan' } })).id;
      return made.activityAttachment ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_ATTACHMENT_UPDATED',
    action: 'PUT /tickets/{id}/activities/{activityId}/attachments/{attachmentId}/data',
    data: changed(ACTIVITY_ATTACHMENT),
    run: async (t, { made }) => {
      const url = `${TICKETS}/${made.ticket}/activities/${made.ticketActivity}/attachments/${made.activityAttachment}`;
      await uploadAttachment(t, url);
      return made.activityAttachment ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_ATTACHMENT_DELETED',
    action: 'DELETE /tickets/{id}/activities/{activityId}/attachments/{attachmentId}',
    data: ACTIVITY_ATTACHMENT,
    run: async (t, { made }) => {
      const url = `${TICKETS}/${made.ticket}/activities/${made.ticketActivity}/attachments/${made.activityAttachment}`;
      await ok(t, { method: 'DELETE', url });
      return made.activityAttachment ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_REMARK_CREATED',
    action: 'POST /tickets/{id}/activities/{activityId}/remarks',
    data: ['ticketId', 'activityId', 'remarkId', 'editor'],
    run: async (t, { made }) => {
      const url = `${TICKETS}/${made.ticket}/activities/${made.ticketActivity}/remarks`;
      made.remark = (await ok(t, { method: 'POST', url, body: { remark: 'supplier called' } })).id;
      return made.remark ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_REMARK_DELETED',
    action: 'DELETE /tickets/{id}/activities/{activityId}/remarks/{remarkId}',
    data: ['ticketId', 'activityId', 'remarkId', 'editor'],
    run: async (t, { made }) => {
      const url = `${TICKETS}/${made.ticket}/activities/${made.ticketActivity}/remarks/${made.remark}`;
      await ok(t, { method: 'DELETE', url });
      return made.remark ?? null;
    },
  },
  {
    eventType: 'TICKET_ACTIVITY_DELETED',
    action: 'DELETE /tickets/{id}/activities/{activityId} (or with its ticket)',
    data: TICKET_ACTIVITY,
    run: async (t, { made }) => {
      await ok(t, { method: 'DELETE', url: `${TICKETS}/${made.ticket}/activities/${made.ticketActivity}` });
      return made.ticketActivity ?? null;
    },
  },
  {
    eventType: 'TICKET_DELETED',
    action: 'DELETE /tickets/{id}',
    data: TICKET,
    run: async (t, { made }) => {
      await ok(t, { method: 'DELETE', url: `${TICKETS}/${made.ticket}` });
      return made.ticket ?? null;
    },
  },
];

const ROWS: Row[] = [
  {
    eventType: 'PRODUCTION_ORDER_CREATED',
    action: 'POST /productionOrders',
    data: ORDER,
    run: async (t, plant) => {
      plant.made.order = (
        await ok(t, { method: 'POST', url: `${API}/productionOrders`, body: { number: 'EC-PO' } })
      ).id;
      return plant.made.order;
    },
  },
  {
    eventType: 'PRODUCTION_ORDER_UPDATED',
    action: 'PUT /productionOrders/{id}',
    data: changed(ORDER),
    run: async (t, { made }) => {
      await ok(t, {
        method: 'PUT',
        url: `${API}/productionOrders/${made.order}`,
        body: { number: 'EC-PO', description: 'changed' },
      });
      return made.order ?? null;
    },
  },
  {
    eventType: 'OPERATION_CREATED',
    action: 'POST /operations',
    data: OPERATION,
    run: async (t, { made }) => {
      const body = { productionOrderId: made.order, number: 'EC-10' };
      made.operation = (await ok(t, { method: 'POST', url: `${API}/operations`, body })).id;
      return made.operation;
    },
  },
  {
    eventType: 'OPERATION_UPDATED',
    action: 'PUT /operations/{id}',
    data: changed(OPERATION),
    run: async (t, { made }) => {
      const body = { productionOrderId: made.order, number: 'EC-10', description: 'changed' };
      await ok(t, { method: 'PUT', url: `${API}/operations/${made.operation}`, body });
      return made.operation ?? null;
    },
  },
  {
    eventType: 'OPERATION_DELETED',
    action: 'DELETE /operations/{id}',
    data: OPERATION,
    run: async (t, { made }) => {
      await ok(t, { method: 'DELETE', url: `${API}/operations/${made.operation}` });
      return made.operation ?? null;
    },
  },
  {
    eventType: 'PRODUCTION_ORDER_DELETED',
    action: 'DELETE /productionOrders/{id}',
    data: ORDER,
    run: async (t, { made }) => {
      await ok(t, { method: 'DELETE', url: `${API}/productionOrders/${made.order}` });
      return made.order ?? null;
    },
  },
  {
    eventType: 'OPERATION_PHASE_CHANGED',
    action: 'POST /operations/{id}/{operationPhaseId}',
    data: ['operationId', 'currentOperationPhase', 'previousOperationPhase', 'workplaceId', 'staffMemberId'],
    run: async (t, { operationId }) => {
      await ok(t, { method: 'POST', url: `${API}/operations/${operationId}/DISPATCHED` });
      return operationId;
    },
  },
  {
    eventType: 'OPERATION_OUTPUT_QUANTITY_RECORDED',
    action: 'POST /operations/{id}/recordedOutputQuantities',
    data: [
      'operationId',
      'recordedOutputQuantityId',
      'quantity',
      'quantityType',
      'timestamp',
      'workplaceId',
    ].concat('staffMemberId', 'qualityDetailId'),
    run: async (t, { operationId }) => {
      const body = { quantity: 3, quantityType: 'YIELD' };
      await ok(t, { method: 'POST', url: `${API}/operations/${operationId}/recordedOutputQuantities`, body });
      return operationId;
    },
  },
  {
    eventType: 'CONNECTOR_STATE_CHANGED',
    action: 'PUT /connectors/{id} disabling it',
    data: ['connectorId', 'name', 'type', 'currentState', 'previousState', 'lastError'],
    run: async (t) => {
      const body = { name: 'EC', type: 'MQTT', url: 'mqtt://127.0.0.1:1883', enabled: false, mappings: [] };
      const id = (await ok(t, { method: 'POST', url: `${API}/connectors`, body })).id;
      await ok(t, { method: 'PUT', url: `${API}/connectors/${id}`, body: { ...body, enabled: true } });
      return id;
    },
  },
  {
    eventType: 'CONNECTOR_VALUES_STALE',
    action: "a running connector's source dying (the runtime's call)",
    data: ['connectorId', 'name', 'type', 'reason', 'mappings', 'workplaceIds', 'operatingState'],
    run: async (t, { workplaceId }) => {
      const body = {
        name: 'EC stale',
        type: 'SPARKPLUG_B',
        url: 'mqtt://127.0.0.1:1883',
        mappings: [
          {
            source: { groupId: 'G', edgeNodeId: 'E', metric: 'State' },
            target: { kind: 'OPERATING_STATE', workplaceId, values: { RUN: '000' } },
          },
        ],
      };
      const connector = await ok(t, { method: 'POST', url: `${API}/connectors`, body });
      // Connectors do not run in this suite: the lease taken as the runtime would, then its report.
      await claimConnectors(t.app.db, 'event-catalogue', new Date());
      await reportStaleValues(t.app.db, connector, 'event-catalogue', [0], 'NDEATH', '998', new Date());
      return connector.id;
    },
  },
  {
    eventType: 'WORKPLACE_OUTPUT_QUANTITY_RECORDED',
    action: "a connector's piece counter at a workplace with no operation in PROCESSING",
    data: [
      'workplaceId',
      'recordedWorkplaceOutputQuantityId',
      'quantity',
      'quantityType',
      'timestamp',
      'connectorId',
      'qualityDetailId',
    ],
    run: async (t) => {
      const workplaceId = await createWorkplace(t, 'EC-W-COUNTER');
      const target = { kind: 'OUTPUT_QUANTITY', workplaceId, quantityType: 'YIELD' };
      const body = { name: 'EC counter', type: 'MQTT', url: 'mqtt://127.0.0.1:1883', enabled: false };
      const connector = await ok(t, {
        method: 'POST',
        url: `${API}/connectors`,
        body: { ...body, mappings: [{ source: { topic: 'ec/count' }, target }] },
      });
      const reading = {
        connectorId: connector.id,
        counterKey: 'ec',
        workplaceId,
        quantityType: 'YIELD' as const,
      };
      for (const value of [5, 7])
        await bookCounterReading(t.app.db, { ...reading, reading: value, timestamp: new Date() });
      return workplaceId;
    },
  },
  {
    eventType: 'OPERATION_FORECAST_RESULT_CREATED',
    action: 'PUT /operations/{id}/forecastResult',
    data: ['operationId', ...RESULT],
    run: async (t, { operationId, workplaceId }) => {
      const body = { workplaceId, ...FUTURE };
      await ok(t, { method: 'PUT', url: `${API}/operations/${operationId}/forecastResult`, body });
      return operationId;
    },
  },
  {
    eventType: 'OPERATION_FORECAST_RESULT_UPDATED',
    action: 'POST /operations/forecastResults/update',
    data: changed(['operationId', ...RESULT]),
    run: async (t, { operationId, workplaceId }) => {
      const body = { forecastResults: [{ operationId, workplaceId, ...FUTURE, fixed: true }] };
      await ok(t, { method: 'POST', url: `${API}/operations/forecastResults/update`, body });
      return operationId;
    },
  },
  {
    eventType: 'PREDICTED_MALFUNCTION_SCENARIO_CREATED',
    action: 'POST /workplaces/predictedMalfunctionScenarios',
    data: ['predictedMalfunctionScenarioId', 'workplaceId', 'startDate', 'endDate', 'probability'].concat([
      'operatingStateId',
      'description',
    ]),
    run: async (t, { workplaceId }) => {
      const body = { workplaceId, probability: 0.4, ...FUTURE };
      await ok(t, { method: 'POST', url: `${API}/workplaces/predictedMalfunctionScenarios`, body });
      return workplaceId;
    },
  },
  {
    eventType: 'OBSOLETE_PREDICTED_MALFUNCTION_SCENARIOS',
    action: 'POST /workplaces/{id}/operatingState/{id} into DOWNTIME while predictions exist',
    data: ['workplaceId', 'predictedMalfunctionScenarioIds'],
    run: async (t, { workplaceId }) => {
      await ok(t, { method: 'POST', url: `${API}/workplaces/${workplaceId}/operatingState/110` });
      return null;
    },
  },
  {
    eventType: 'OBSOLETE_OPERATION_FORECAST_RESULTS',
    action: 'POST /workplaces/{id}/operatingState/{id} into DOWNTIME while forecasts run there',
    data: ['operationId', 'workplaceId', 'operatingStateId'],
    run: async (t, { workplaceId, operationId }) => {
      await ok(t, { method: 'POST', url: `${API}/workplaces/${workplaceId}/operatingState/010` });
      return operationId;
    },
  },
  {
    eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
    action: 'POST /workplaces/{id}/operatingState/{operatingStateId}',
    data: ['workplaceId', 'currentOperatingState', 'previousOperatingState'],
    run: async (t, { workplaceId }) => {
      await ok(t, { method: 'POST', url: `${API}/workplaces/${workplaceId}/operatingState/000` });
      return workplaceId;
    },
  },
  {
    eventType: 'WORKPLACE_RECORDED_OPERATING_STATES_CORRECTED',
    action: 'POST /workplaces/{id}/recordedOperatingStates/update',
    data: [
      'workplaceId',
      'operationId',
      'recordedOperatingStateId',
      'operatingState',
      'startDate',
      'endDate',
      'machineStateDetailIds',
      'remark',
      'removedRecordIds',
    ],
    run: async (t, { workplaceId }) => {
      const body = {
        operatingStateId: '110',
        startDate: '2020-01-01T06:00:00.000Z',
        endDate: '2020-01-01T07:00:00.000Z',
      };
      await ok(t, {
        method: 'POST',
        url: `${API}/workplaces/${workplaceId}/recordedOperatingStates/update`,
        body,
      });
      return workplaceId;
    },
  },
  {
    eventType: 'OPERATION_FORECAST_RESULT_DELETED',
    action: 'DELETE /operations/{id}/forecastResult',
    data: ['operationId', ...RESULT],
    run: async (t, { operationId }) => {
      await ok(t, { method: 'DELETE', url: `${API}/operations/${operationId}/forecastResult` });
      return operationId;
    },
  },
  {
    eventType: 'OPERATION_PLANNING_SCENARIO_CREATED',
    action: 'POST /operations/planningScenarios',
    data: ['operationPlanningScenarioId', 'name', 'description'],
    run: async (t) =>
      (await ok(t, { method: 'POST', url: `${API}/operations/planningScenarios`, body: { assignments: [] } }))
        .id,
  },
  {
    eventType: 'OPERATION_PLANNING_RESULT_CREATED',
    action: 'POST /operations/planningResults/update',
    data: ['operationId', ...RESULT],
    run: async (t, { operationId, workplaceId }) => {
      const body = { assignments: [{ operationId, workplaceId, ...FUTURE }] };
      await ok(t, { method: 'POST', url: `${API}/operations/planningResults/update`, body });
      return operationId;
    },
  },
  {
    eventType: 'OBSOLETE_OPERATION_PLANNING_SCENARIOS',
    action: 'a planning result change while operation planning scenarios are current',
    data: ['operationPlanningScenarioIds'],
    run: async (t, { operationId, workplaceId }) => {
      await ok(t, { method: 'POST', url: `${API}/operations/planningScenarios`, body: { assignments: [] } });
      const body = { assignments: [{ operationId, workplaceId, ...FUTURE, fixed: true }] };
      await ok(t, { method: 'POST', url: `${API}/operations/planningResults/update`, body });
      return null;
    },
  },
  {
    eventType: 'OPERATION_PLANNING_RESULT_UPDATED',
    action: 'POST /operations/planningResults/update changing a result',
    data: changed(['operationId', ...RESULT]),
    run: async (t, { operationId, workplaceId }) => {
      const body = { assignments: [{ operationId, workplaceId, ...FUTURE, fixed: false }] };
      await ok(t, { method: 'POST', url: `${API}/operations/planningResults/update`, body });
      return operationId;
    },
  },
  {
    eventType: 'OPERATION_PLANNING_RESULT_DELETED',
    action: 'DELETE /operations/{id}/planningResult',
    data: ['operationId', ...RESULT],
    run: async (t, { operationId }) => {
      await ok(t, { method: 'DELETE', url: `${API}/operations/${operationId}/planningResult` });
      return operationId;
    },
  },
  {
    eventType: 'STAFF_MEMBER_PLANNING_SCENARIO_CREATED',
    action: 'POST /staffMembers/planningScenarios',
    data: ['staffMemberPlanningScenarioId', 'name', 'description'],
    run: async (t) =>
      (await ok(t, { method: 'POST', url: `${API}/staffMembers/planningScenarios`, body: { elements: [] } }))
        .id,
  },
  ...(['CREATED', 'UPDATED'] as const).map(
    (change): Row => ({
      eventType: `STAFF_MEMBER_PLANNING_RESULT_${change}`,
      action: 'POST /staffMembers/planningResults/update',
      data: change === 'CREATED' ? ['staffMemberId', ...RESULT] : changed(['staffMemberId', ...RESULT]),
      run: async (t, { staffMemberId, workplaceId }) => {
        const body = { elements: [{ staffMemberId, workplaceId, ...FUTURE, fixed: change === 'UPDATED' }] };
        await ok(t, { method: 'POST', url: `${API}/staffMembers/planningResults/update`, body });
        return staffMemberId;
      },
    }),
  ),
  {
    eventType: 'STAFF_MEMBER_PLANNING_RESULT_DELETED',
    action: 'DELETE /staffMembers/{id}/planningResult',
    data: ['staffMemberId', ...RESULT],
    run: async (t, { staffMemberId }) => {
      await ok(t, { method: 'DELETE', url: `${API}/staffMembers/${staffMemberId}/planningResult` });
      return staffMemberId;
    },
  },
  {
    eventType: 'WORKPLACE_CREATED',
    action: 'POST /workplaces',
    data: WORKPLACE,
    run: async (t, { made }) => {
      made.workplace = await createWorkplace(t, 'EC-W2');
      return made.workplace;
    },
  },
  {
    eventType: 'WORKPLACE_UPDATED',
    action: 'PUT /workplaces/{id}',
    data: changed(WORKPLACE),
    run: async (t, { made }) => {
      const { capacityGroupId } = await ok(t, { url: `${API}/workplaces/${made.workplace}` });
      const body = { number: 'EC-W2', capacityGroupId, description: 'changed' };
      await ok(t, { method: 'PUT', url: `${API}/workplaces/${made.workplace}`, body });
      return made.workplace ?? null;
    },
  },
  {
    eventType: 'WORKPLACE_DELETED',
    action: 'DELETE /workplaces/{id}',
    data: WORKPLACE,
    run: async (t, { made }) => {
      await ok(t, { method: 'DELETE', url: `${API}/workplaces/${made.workplace}` });
      return made.workplace ?? null;
    },
  },
  {
    eventType: 'WORKPLACE_SHIFTS_UPDATED',
    action: 'POST /workplaces/{id}/shifts',
    data: ['workplaceId', 'changeType', 'shift'],
    run: async (t, { workplaceId }) => {
      await ok(t, { method: 'POST', url: `${API}/workplaces/${workplaceId}/shifts`, body: FUTURE });
      return workplaceId;
    },
  },
  {
    eventType: 'WORKPLACE_SHIFT_CHANGED',
    action: 'the shift clock, when a shift starts (here: one created already running)',
    data: ['shiftId', 'workplaceId', 'change', 'startDate', 'endDate'],
    run: async (t, { workplaceId }) => {
      const running = {
        startDate: new Date(Date.now() - 60_000).toISOString(),
        endDate: new Date(Date.now() + 3_600_000).toISOString(),
      };
      return (await ok(t, { method: 'POST', url: `${API}/workplaces/${workplaceId}/shifts`, body: running }))
        .id;
    },
  },
  ...(['CREATED', 'UPDATED', 'DELETED'] as const).map(
    (change): Row => ({
      eventType: `SCHEDULED_MAINTENANCE_${change}`,
      action: `${{ CREATED: 'POST', UPDATED: 'PUT', DELETED: 'DELETE' }[change]} /workplaces/{id}/scheduledMaintenances`,
      data: change === 'UPDATED' ? changed(MAINTENANCE) : MAINTENANCE,
      run: async (t, { workplaceId, made }) => {
        const collection = `${API}/workplaces/${workplaceId}/scheduledMaintenances`;
        const body = { description: change, ...FUTURE };
        if (change === 'CREATED')
          made.maintenance = (await ok(t, { method: 'POST', url: collection, body })).id;
        else if (change === 'UPDATED')
          await ok(t, { method: 'PUT', url: `${collection}/${made.maintenance}`, body });
        else await ok(t, { method: 'DELETE', url: `${collection}/${made.maintenance}` });
        return workplaceId;
      },
    }),
  ),
  ...(['CREATED', 'UPDATED', 'DELETED'] as const).map(
    (change): Row => ({
      eventType: `SETUP_TRANSITION_RULE_${change}`,
      action: `${{ CREATED: 'POST', UPDATED: 'PUT', DELETED: 'DELETE' }[change]} /workplaceGroups/{id}/setupTransitionRules`,
      data: change === 'UPDATED' ? changed(SETUP_RULE) : SETUP_RULE,
      run: async (t, { workplaceId, made }) => {
        const workplace = await ok(t, { url: `${API}/workplaces/${workplaceId}` });
        const groupId = String(workplace.capacityGroupId);
        const collection = `${API}/workplaceGroups/${groupId}/setupTransitionRules`;
        const body = {
          origin: 'MANUAL_DATA_MAINTENANCE',
          criterion: 'MATERIAL_NUMBER',
          predecessorConditions: 'EC-M1',
          successorConditions: 'EC-M2',
          setupTime: change === 'UPDATED' ? 2 : 1,
        };
        if (change === 'CREATED')
          made.setupRule = (await ok(t, { method: 'POST', url: collection, body })).id;
        else if (change === 'UPDATED')
          await ok(t, { method: 'PUT', url: `${collection}/${made.setupRule}`, body });
        else await ok(t, { method: 'DELETE', url: `${collection}/${made.setupRule}` });
        return groupId;
      },
    }),
  ),
  ...(['CREATED', 'UPDATED', 'DELETED'] as const).map(
    (change): Row => ({
      eventType: `MANUFACTURING_VARIANT_RULE_${change}`,
      action: `${{ CREATED: 'POST', UPDATED: 'PUT', DELETED: 'DELETE' }[change]} /workplaceGroups/{id}/manufacturingVariantRules`,
      data: change === 'UPDATED' ? changed(VARIANT_RULE) : VARIANT_RULE,
      run: async (t, { workplaceId, made }) => {
        const workplace = await ok(t, { url: `${API}/workplaces/${workplaceId}` });
        const groupId = String(workplace.capacityGroupId);
        const collection = `${API}/workplaceGroups/${groupId}/manufacturingVariantRules`;
        const body = {
          origin: 'MANUAL_DATA_MAINTENANCE',
          criterion: 'MATERIAL_NUMBER',
          conditions: change === 'UPDATED' ? 'EC-M2' : 'EC-M1',
          workplaceIds: [workplaceId],
        };
        if (change === 'CREATED')
          made.variantRule = (await ok(t, { method: 'POST', url: collection, body })).id;
        else if (change === 'UPDATED')
          await ok(t, { method: 'PUT', url: `${collection}/${made.variantRule}`, body });
        else await ok(t, { method: 'DELETE', url: `${collection}/${made.variantRule}` });
        return groupId;
      },
    }),
  ),
  {
    eventType: 'STAFF_MEMBER_CREATED',
    action: 'POST /staffMembers',
    data: STAFF,
    run: async (t, { made }) => {
      made.staff = await createStaffMember(t, 'EC-S2');
      return made.staff;
    },
  },
  {
    eventType: 'STAFF_MEMBER_UPDATED',
    action: 'PUT /staffMembers/{id}',
    data: changed(STAFF),
    run: async (t, { made }) => {
      const body = {
        staffNumber: 'EC-S2',
        firstName: 'Test',
        lastName: 'Person',
        qualifications: ['welding'],
      };
      await ok(t, { method: 'PUT', url: `${API}/staffMembers/${made.staff}`, body });
      return made.staff ?? null;
    },
  },
  {
    eventType: 'STAFF_MEMBER_DELETED',
    action: 'DELETE /staffMembers/{id}',
    data: STAFF,
    run: async (t, { made }) => {
      await ok(t, { method: 'DELETE', url: `${API}/staffMembers/${made.staff}` });
      return made.staff ?? null;
    },
  },
  {
    eventType: 'STAFF_MEMBER_ACTIVITY_CHANGED',
    action: 'POST /staffMembers/{id}/activities',
    data: ['staffMemberId', 'operationId', 'workplaceId', 'activity', 'previousActivity'],
    run: async (t, { staffMemberId, operationId, workplaceId }) => {
      const body = { operationId, workplaceId, activity: 'STARTED' };
      await ok(t, { method: 'POST', url: `${API}/staffMembers/${staffMemberId}/activities`, body });
      return staffMemberId;
    },
  },
  {
    eventType: 'TOOL_CREATED',
    action: 'POST /tools/assemblyOrders',
    data: TOOL,
    run: async (t, { made }) => {
      const order = await ok(t, {
        method: 'POST',
        url: `${API}/tools/assemblyOrders`,
        body: { toolDescription: 'Drill 8 mm' },
      });
      made.assemblyOrder = order.id;
      made.tool = order.toolId;
      return order.toolId;
    },
  },
  {
    eventType: 'TOOL_ASSEMBLY_ORDER_STATE_CHANGED',
    action: 'POST /tools/assemblyOrders/{id}/{toolAssemblyOrderStateId}',
    data: [
      'toolAssemblyOrderId',
      'toolId',
      'currentToolAssemblyOrderState',
      'previousToolAssemblyOrderState',
    ],
    run: async (t, { made }) => {
      await ok(t, { method: 'POST', url: `${API}/tools/assemblyOrders/${made.assemblyOrder}/INITIATED` });
      return made.assemblyOrder ?? null;
    },
  },
  {
    eventType: 'TOOL_UPDATED',
    action: 'PUT /tools/{id}',
    data: changed(TOOL),
    run: async (t, { made }) => {
      await ok(t, {
        method: 'PUT',
        url: `${API}/tools/${made.tool}`,
        body: { description: 'Drill 8 mm HSS' },
      });
      return made.tool ?? null;
    },
  },
  {
    eventType: 'TOOL_DELETED',
    action: 'DELETE /tools/{id} (its assembly order final)',
    data: TOOL,
    run: async (t, { made }) => {
      await ok(t, { method: 'POST', url: `${API}/tools/assemblyOrders/${made.assemblyOrder}/UNAVAILABLE` });
      await ok(t, { method: 'DELETE', url: `${API}/tools/${made.tool}` });
      return made.tool ?? null;
    },
  },
  {
    eventType: 'DOCUMENT_CREATED',
    action: 'POST /documents',
    data: DOCUMENT,
    run: async (t, { made }) => {
      const body = { name: 'setup.pdf', folder: '/orders/EC' };
      made.document = (await ok(t, { method: 'POST', url: `${API}/documents`, body })).id;
      return made.document;
    },
  },
  {
    eventType: 'DOCUMENT_UPDATED',
    action: 'PUT /documents/{id}/file',
    data: changed(DOCUMENT),
    run: async (t, { made }) => {
      const response = await t.request({
        method: 'PUT',
        url: `${API}/documents/${made.document}/file`,
        body: 'setup sheet',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(response.statusCode, 200, response.body);
      return made.document ?? null;
    },
  },
  {
    eventType: 'DOCUMENT_DELETED',
    action: 'DELETE /documents/{id}',
    data: DOCUMENT,
    run: async (t, { made }) => {
      await ok(t, { method: 'DELETE', url: `${API}/documents/${made.document}` });
      return made.document ?? null;
    },
  },
  {
    eventType: 'RESOURCES_UPDATED',
    action: 'POST /devices (devices have no detail events)',
    data: ['changeType'],
    objectType: 'DEVICE',
    run: async (t, { workplaceId }) =>
      (
        await ok(t, {
          method: 'POST',
          url: `${API}/devices`,
          body: { name: 'PLC 1', type: 'PLC', workplaceId },
        })
      ).id,
  },
  {
    eventType: 'COMMAND',
    action: 'POST /commands?async=false (eventName: the command type)',
    data: ['type', 'operationId', 'quantity', 'qualityDetailId'],
    objectType: 'OPERATION',
    run: async (t, { operationId }) => {
      const body = { type: 'OPERATION_QUANTITY', operationId, quantity: 2, qualityDetailId: 'YIELD' };
      await ok(t, { method: 'POST', url: `${API}/commands?async=false`, body });
      return operationId;
    },
  },
  {
    eventType: EXTERNAL_EVENT_TYPE,
    action: 'POST /events',
    data: ['lot'],
    objectType: 'TOOL',
    run: async (t) => {
      const body = { eventType: 'EXTERNAL', objectType: 'TOOL', objectId: 'T-42', data: { lot: 7 } };
      await ok(t, { method: 'POST', url: `${API}/events`, body });
      return 'T-42';
    },
  },
  ...TICKET_ROWS,
];

interface StoredRow {
  object_type: string;
  object_id: string | null;
  data: Record<string, unknown> | string;
}

const lastSequence = async (t: TestApp) =>
  Number((await t.app.db.query<{ n: string | null }>('SELECT max(sequence) AS n FROM events'))[0]?.n ?? 0);

/** The events of `type` about `objectId` stored after `sequence`. */
async function storedAfter(t: TestApp, sequence: number, type: string, objectId: string | null) {
  const rows = await t.app.db.query<StoredRow>(
    'SELECT object_type, object_id, data FROM events WHERE sequence > $1 AND event_type = $2 ORDER BY sequence',
    [sequence, type],
  );
  return rows.filter((row) => row.object_id === objectId);
}

describeEachBackend(
  'every event type is reachable',
  (t) => {
    const plant = { made: {} } as Plant;
    before(async () => {
      plant.workplaceId = await createWorkplace(t(), 'EC-W1');
      plant.operationId = await createOperation(t(), 'EC-OP1', { workplaceId: plant.workplaceId });
      plant.staffMemberId = await createStaffMember(t(), 'EC-S1');
    });

    test('the table covers the catalogue of docs/events.md and EXTERNAL, once each', () => {
      const covered = ROWS.map((row) => row.eventType).sort();
      assert.deepEqual(covered, [...Object.keys(EVENT_OBJECT_TYPES), EXTERNAL_EVENT_TYPE].sort());
    });

    for (const row of ROWS) {
      test(`${row.eventType} <- ${row.action}`, async () => {
        const sequence = await lastSequence(t());
        const objectId = await row.run(t(), plant);
        // The shift clock announces on its own time; everything else is in the request's transaction.
        const [event] = await waitFor(`${row.eventType} about ${objectId}`, async () => {
          const found = await storedAfter(t(), sequence, row.eventType, objectId);
          return found.length > 0 && found;
        });
        assert.ok(event);
        const data = typeof event.data === 'string' ? JSON.parse(event.data) : event.data;
        assert.equal(event.object_type, row.objectType ?? EVENT_OBJECT_TYPES[row.eventType]);
        assert.deepEqual(Object.keys(data).sort(), [...row.data].sort());
      });
    }
  },
  { BRIDGE_SHIFT_CLOCK_POLL_MS: '20', BRIDGE_DELIVERY_ENABLED: 'false', BRIDGE_CONNECTORS_ENABLED: 'false' },
);
