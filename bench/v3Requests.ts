// What `npm run v3:conformance` sends (docs/v3-conformance.md): the items the demo plant does not
// seed, created through the API before the run; the ids that fill path templates; and the bodies
// of writes, modelled on the request models of FORCAM's Java SDK, so that a write is answered by
// the service's rules rather than refused by its validation.
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../test/support/app.ts';

export const V3 = '/api/v3';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface StaffMemberShift {
  id: string;
  shift: { timePeriod: { startDate: string; endDate: string } };
}

export const bodyOf = (response: LightMyRequestResponse): unknown => {
  try {
    return response.json();
  } catch {
    return undefined;
  }
};

// Values for path parameters that name a state or phase to move to: a change the service allows
// from the state the item is in.
const ACTION_VALUES: Record<string, string> = {
  operationPhaseId: 'SETUP',
  toolStateId: 'AVAILABLE',
  machineStateId: 'PRODUCTION',
  ticketStateId: 'IN_PROGRESS',
  ticketActivityStateId: 'IN_PROGRESS',
  toolAssemblyOrderStateId: 'INITIATED',
};

/**
 * The embeds the SDK's tests send for recordings whose fixture has no `query` (their recorded
 * collection's self link leaves the embeds out, but the items show them embedded), so that the
 * service is asked what the recorded server was asked.
 */
export const SDK_EMBEDS: Readonly<Record<string, readonly string[]>> = {
  // MasterDataClientIntegrationTest.testGetOperatingStates
  'getOperatingStates.json': ['operatingStateClass', 'workplaceState', 'description', 'shortDescription'],
  // MasterDataClientIntegrationTest.testGetTicketClasses
  'getTicketClasses.json': ['description', 'shortDescription'],
};

// Where the most telling item for a parameter is found (one with history or devices; one that
// may still change, for writes), tried before the collection itself: a URL, the property of its
// first item that holds the id, and a link that item must have.
const PREFERRED_ITEMS: Record<string, { url: string; writeUrl?: string; property: string; having?: string }> =
  {
    operationId: {
      url: '/operations?operationPhaseId=COMPLETED&limit=1',
      writeUrl: '/operations?operationPhaseId=RELEASED&limit=1',
      property: 'id',
    },
    workplaceId: { url: '/devices?limit=1', property: 'workplaceId' },
    // The recorded document state has texts; the first one (NEW) has none, as on a real server.
    documentStateId: { url: '/masterData/documentStates', property: 'id', having: 'description' },
    // The order of a completed operation: its operations ran at workplaces and have a history.
    productionOrderId: {
      url: '/operations?operationPhaseId=COMPLETED&limit=1',
      property: 'productionOrderId',
    },
  };

/**
 * A property of the first item of a collection answer (HAL `_embedded` or `properties.elements`);
 * `having`: of the first item with that link.
 */
function firstItem(body: unknown, property: string, having?: string): string | undefined {
  const embedded = (body as { _embedded?: Record<string, unknown> } | undefined)?._embedded;
  for (const items of Object.values(embedded ?? {})) {
    if (!Array.isArray(items)) continue;
    const item =
      having === undefined ? items[0] : items.find((candidate) => having in (candidate?._links ?? {}));
    const value = item?.properties?.[property];
    if (typeof value === 'string') return value;
  }
  const elements = (body as { properties?: { elements?: Record<string, unknown>[] } } | undefined)?.properties
    ?.elements;
  const value = elements?.[0]?.[property];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Fills a path template with ids of the plant: the items created for the run where a parameter
 * names one, else the first item of the service's own collection one level up.
 */
export class PathFiller {
  private readonly ids = new Map<string, string>();
  private readonly fixed: Record<string, string> = {};
  private readonly t: TestApp;
  constructor(t: TestApp) {
    this.t = t;
  }

  /**
   * From now on `parameter` names this item (the one created with what the reads need); `within`:
   * only below that template (`/staffMembers/{staffMemberId}/shifts`), for a collection the API
   * does not serve there.
   */
  use(parameter: string, id: string, within = ''): void {
    this.fixed[`${within}/{${parameter}}`] = id;
  }

  async fill(template: string, method: string): Promise<string> {
    const segments = template.split('/');
    let path = '';
    let above = '';
    for (const segment of segments.slice(1)) {
      const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
      const within = above;
      above += `/${segment}`;
      if (parameter === undefined) {
        path += `/${segment}`;
        continue;
      }
      // Deletes name no stored row: the operation is still exercised and the plant stays whole.
      const isLast = segment === segments.at(-1);
      const value =
        method === 'DELETE' && isLast
          ? randomUUID()
          : ((method !== 'GET' ? ACTION_VALUES[parameter] : undefined) ??
            this.fixed[`${within}/${segment}`] ??
            this.fixed[`/${segment}`] ??
            (await this.idFrom(path, parameter, method)) ??
            randomUUID());
      path += `/${encodeURIComponent(value)}`;
    }
    return path || '/';
  }

  /** The first item's id of the collection at `collection`, remembered per collection. */
  private async idFrom(collection: string, parameter: string, method: string): Promise<string | undefined> {
    const preferred = PREFERRED_ITEMS[parameter];
    const preferredUrl = method !== 'GET' ? (preferred?.writeUrl ?? preferred?.url) : preferred?.url;
    const key = `${collection} ${parameter} ${preferredUrl}`;
    if (this.ids.has(key)) return this.ids.get(key);
    let id: string | undefined;
    const topLevel = `/${collection.split('/')[1]}` === collection;
    if (preferred && preferredUrl && (topLevel || preferredUrl.split('?')[0] === collection)) {
      id = firstItem(
        bodyOf(await this.t.request({ url: `${V3}${preferredUrl}` })),
        preferred.property,
        preferred.having,
      );
    }
    id ??= firstItem(bodyOf(await this.t.request({ url: `${V3}${collection}` })), 'id');
    if (id !== undefined) this.ids.set(key, id);
    return id;
  }

  /** The workplace reads and writes are about. */
  workplaceId(): Promise<string | undefined> {
    return this.idFrom('/workplaces', 'workplaceId', 'GET');
  }

  /** The operation a read (GET) or a write asks about. */
  operationId(method: 'GET' | 'POST'): Promise<string | undefined> {
    return this.idFrom('/operations', 'operationId', method);
  }

  /** The first item of a collection of the plant. */
  first(collection: string): Promise<string | undefined> {
    return this.idFrom(collection, 'id', 'GET');
  }
}

/** The ids of the plant that bodies and queries name. */
export interface Plant {
  /** The workplace reads, reports and writes are about (it has devices). */
  workplaceId: string;
  /** An operation that may still change (RELEASED), its material and a shift at the workplace. */
  operationId: string;
  materialNumber: string;
  shiftId: string;
  ticketClassId: string;
  staffMemberId: string;
  /** The operation reads ask about (COMPLETED, with history), its material and its order. */
  readOperation: { id: string; materialNumber: string; productionOrderId: string };
}

/** The bodies of writes; a write whose operation has none here gets `{}` (its validation answers). */
export class WriteBodies {
  private readonly plant: Plant;
  private count = 0;
  constructor(plant: Plant) {
    this.plant = plant;
  }

  /** A fresh body for `method template` (identifiers that must be unique differ each time). */
  for(method: string, template: string): unknown {
    const make = this.bodies[`${method} ${template}`];
    return make ? make() : {};
  }

  private unique(prefix: string): string {
    this.count += 1;
    return `${prefix}-${this.count}`;
  }

  // The SDK's request models: CreateCallbackProperties, WriteTicketProperties,
  // WriteTicketActivityProperties, CreateTicket(Activity)AttachmentProperties,
  // CreateTicketActivityRemarkProperties, CreateToolProperties (with its location),
  // CreateToolEdgeProperties, CharacteristicGeneralDefinition, CreateToolLocationProperties and
  // OperationPhaseRequestBody.
  private readonly bodies: Record<string, () => unknown> = {
    'POST /callbacks': () => callbackBody,
    'POST /operations/search': () => ({}),
    'POST /productionOrders/search': () => ({}),
    'POST /operations/{operationId}/{operationPhaseId}': () => ({ workplaceId: this.plant.workplaceId }),
    'POST /tickets': () => this.ticket(),
    // A replaced ticket keeps its state (its state command moves it).
    'PUT /tickets/{ticketId}': () => {
      const { ticketStateId: _, ...ticket } = this.ticket();
      return ticket;
    },
    'POST /tickets/{ticketId}/activities': () => this.activity(),
    'PUT /tickets/{ticketId}/activities/{activityId}': () => this.activity(),
    'POST /tickets/{ticketId}/activities/{activityId}/remarks': () => ({
      remark: 'Spindle bearing replaced, runout within tolerance',
      editor: 'v3 conformance',
    }),
    'POST /tickets/{ticketId}/attachments': () => ({ description: 'Photo of the damaged fixture' }),
    'POST /tickets/{ticketId}/activities/{activityId}/attachments': () => ({
      description: 'Measurement protocol',
    }),
    'POST /tools': () => this.tool(),
    'POST /tools/{toolId}/edges': () => this.edge(),
    'PUT /tools/{toolId}/edges/{edgeId}': () => {
      const { characteristics: _, ...edge } = this.edge();
      return edge;
    },
    'PUT /tools/{toolId}/characteristics': () => characteristics,
    'PUT /tools/{toolId}/edges/{edgeId}/characteristics': () => characteristics,
    'PUT /tools/{toolId}/location': () => ({
      workplaceId: this.plant.workplaceId,
      magazineNumber: 2,
      magazinePlace: 7,
    }),
  };

  ticket() {
    const { plant } = this;
    return {
      title: 'Clamping fixture damaged',
      description: 'The fixture of station 2 shows a crack',
      rootCause: 'Overload during setup',
      priority: 'LOW',
      editor: 'v3 conformance',
      ticketStateId: 'NEW',
      ticketClassId: plant.ticketClassId,
      operationId: plant.operationId,
      materialNumber: plant.materialNumber,
      workplaceId: plant.workplaceId,
      shiftId: plant.shiftId,
    };
  }

  activity() {
    return {
      title: 'Replace the fixture',
      description: 'Order a new fixture and mount it',
      editor: 'v3 conformance',
      dueDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    };
  }

  tool() {
    return {
      name: 'End mill D12',
      description: 'Solid carbide end mill',
      identifier1: this.unique('V3-TOOL'),
      identifier2: '2037585391',
      identifier3: '182489540',
      documentUrl: 'https://example.com/tools/end-mill-d12.pdf',
      group: { name: 'Milling', identifier: 'MILL' },
      class: { name: 'End mills', identifier: 'EM' },
      lifeTime: lifeTime(),
      location: { workplaceId: this.plant.workplaceId, magazineNumber: 1, magazinePlace: 4 },
      characteristics,
    };
  }

  edge() {
    return { identifier: this.unique('EDGE'), lifeTime: lifeTime(), characteristics };
  }
}

const callbackBody = {
  eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
  url: 'http://127.0.0.1:9/v3-conformance',
};

const lifeTime = () => ({ current: 3_600_000, warningLimit: 36_000_000, maximum: 40_000_000 });

// ISO 13399 names and identifiers, as tool characteristics carry them.
const characteristics = [
  { name: 'Cutting diameter', identifier: 'DC', value: '12', unit: 'mm' },
  { name: 'Number of flutes', identifier: 'ZEFP', value: '4', unit: null },
];

async function send(t: TestApp, method: Method, path: string, body?: unknown, contentType?: string) {
  const response = await t.request({
    method,
    url: `${V3}${path}`,
    body: body as string | object | undefined,
    headers: contentType ? { 'content-type': contentType } : {},
  });
  if (response.statusCode >= 300)
    throw new Error(`preparing ${method} ${path}: ${response.statusCode} ${response.body}`);
  return bodyOf(response) as
    | { properties?: Record<string, unknown>; _embedded?: Record<string, unknown> }
    | undefined;
}

const need = (value: string | undefined, what: string) => {
  if (value === undefined) throw new Error(`the seeded plant has no ${what}`);
  return value;
};

const idOf = (answer: { properties?: Record<string, unknown> } | undefined, what: string): string => {
  const id = answer?.properties?.id;
  if (typeof id !== 'string') throw new Error(`preparing ${what}: the answer has no id`);
  return id;
};

/** The ids bodies name, read from the seeded plant. */
export async function plantOf(t: TestApp, filler: PathFiller): Promise<Plant> {
  const operation = async (method: 'GET' | 'POST') => {
    const id = need(await filler.operationId(method), `operation for a ${method}`);
    const properties = (await send(t, 'GET', `/operations/${id}`))?.properties;
    const material = properties?.material as { number?: string } | null | undefined;
    return {
      id,
      materialNumber: need(material?.number, 'material of an operation'),
      productionOrderId: need(properties?.productionOrderId as string | undefined, 'production order'),
    };
  };
  const written = await operation('POST');
  return {
    workplaceId: need(await filler.workplaceId(), 'workplace with a device'),
    operationId: written.id,
    materialNumber: written.materialNumber,
    shiftId: need(await filler.first('/workplaces/shifts'), 'shift'),
    ticketClassId: need(await filler.first('/masterData/ticketClasses'), 'ticket class'),
    staffMemberId: need(await filler.first('/staffMembers'), 'staff member'),
    readOperation: await operation('GET'),
  };
}

/**
 * What the demo plant does not seed, created through the API so that every recorded read finds
 * an item (two where the recording shows another page): two callbacks; two scheduled maintenance
 * tasks and two output quantities at the workplace; a ticket with an activity, a remark, and an uploaded attachment on both; a
 * tool with a location, characteristics and an edge; a forecast and a planning result of the
 * operation the reads ask about; a planning scenario of operations and of staff members; a
 * predicted malfunction; setup transition rules and a manufacturing variant rule. The paths then name the ticket, the tool and the
 * workplace group made or used here.
 */
export async function createMissingItems(
  t: TestApp,
  filler: PathFiller,
  plant: Plant,
  bodies: WriteBodies,
): Promise<void> {
  for (let n = 0; n < 2; n++) await send(t, 'POST', '/callbacks', bodies.for('POST', '/callbacks'));
  const ticketId = idOf(await send(t, 'POST', '/tickets', bodies.ticket()), 'ticket');
  const activityId = idOf(
    await send(t, 'POST', `/tickets/${ticketId}/activities`, bodies.activity()),
    'ticket activity',
  );
  await send(t, 'POST', `/tickets/${ticketId}/activities/${activityId}/remarks`, {
    remark: 'Fixture ordered',
    editor: 'v3 conformance',
  });
  for (const owner of [`/tickets/${ticketId}`, `/tickets/${ticketId}/activities/${activityId}`]) {
    const attachmentId = idOf(
      await send(t, 'POST', `${owner}/attachments`, { description: 'Photo of the fixture' }),
      'attachment',
    );
    await send(
      t,
      'PUT',
      `${owner}/attachments/${attachmentId}/data?name=fixture.txt`,
      'crack at the left jaw',
      'text/plain',
    );
  }
  filler.use('ticketId', ticketId);

  const toolId = idOf(await send(t, 'POST', '/tools', bodies.tool()), 'tool');
  await send(t, 'POST', `/tools/${toolId}/edges`, bodies.edge());
  filler.use('toolId', toolId);

  const hour = 3_600_000;
  const at = (hours: number) => new Date(Date.now() + hours * hour).toISOString();
  const result = { workplaceId: plant.workplaceId, startDate: at(1), endDate: at(2) };
  await send(t, 'PUT', `/operations/${plant.readOperation.id}/forecastResult`, result);
  await send(t, 'POST', '/operations/planningResults/update', {
    assignments: [{ operationId: plant.readOperation.id, ...result }],
  });
  await send(t, 'POST', '/operations/planningScenarios', {
    name: 'Night shift without line 2',
    description: 'What-if plan',
    assignments: [{ operationId: plant.operationId, ...result }],
  });
  // The staff member's dispatching to their first workplace over their next two shifts, so their
  // planning results per shift read in pages of one have a next page.
  const member = await send(t, 'GET', `/staffMembers/${plant.staffMemberId}`);
  const shifts = await send(
    t,
    'GET',
    `/staffMembers/shifts?staffMemberId=${plant.staffMemberId}&startDate=${encodeURIComponent(at(0))}`,
  );
  const next = ((shifts?._embedded?.shifts ?? []) as { properties: StaffMemberShift }[])
    .map((shift) => shift.properties)
    .sort((a, b) => a.shift.timePeriod.startDate.localeCompare(b.shift.timePeriod.startDate));
  const periods = next.map((shift) => shift.shift.timePeriod);
  await send(t, 'POST', '/staffMembers/planningResults/update', {
    elements: [
      {
        staffMemberId: plant.staffMemberId,
        workplaceId: need(
          (member?.properties?.assignedWorkplaceIds as string[] | undefined)?.[0],
          'workplace',
        ),
        startDate: need(periods[0]?.startDate, "staff member's shift"),
        endDate: need(periods[1]?.endDate, "staff member's second shift"),
      },
    ],
  });
  filler.use('shiftId', need(next[0]?.id, "staff member's shift"), '/staffMembers/{staffMemberId}/shifts');
  await send(t, 'POST', '/staffMembers/planningScenarios', {
    name: 'Short-staffed week',
    description: 'What-if plan',
    elements: [{ staffMemberId: plant.staffMemberId, ...result }],
  });
  for (const [start, end] of [
    [5, 7],
    [29, 31],
  ] as const) {
    await send(t, 'POST', `/workplaces/${plant.workplaceId}/scheduledMaintenances`, {
      description: 'Spindle lubrication',
      maintenanceType: 'PREVENTIVE',
      startDate: at(start),
      endDate: at(end),
    });
  }
  for (const quantity of [3, 5]) {
    await send(t, 'POST', `/operations/${plant.operationId}/recordedOutputQuantities`, {
      quantity,
      quantityType: 'YIELD',
      workplaceId: plant.workplaceId,
    });
  }
  // Setup transition rules at the group of the read operation's workplace: its material to itself
  // (an entry of the setup matrix) and on to a material the plant may make later.
  const operation = await send(t, 'GET', `/operations/${plant.readOperation.id}`);
  const workplace = await send(t, 'GET', `/workplaces/${String(operation?.properties?.workplaceId)}`);
  const groupId = String(workplace?.properties?.capacityGroupId);
  for (const successor of [plant.readOperation.materialNumber, 'M-NEXT']) {
    await send(t, 'POST', `/workplaceGroups/${groupId}/setupTransitionRules`, {
      origin: 'MANUAL_DATA_MAINTENANCE',
      criterion: 'MATERIAL_NUMBER',
      predecessorConditions: plant.readOperation.materialNumber,
      successorConditions: successor,
      setupTime: 900_000,
    });
  }
  // A manufacturing variant of the same group: the read operation's material at its workplace.
  await send(t, 'POST', `/workplaceGroups/${groupId}/manufacturingVariantRules`, {
    origin: 'MANUAL_DATA_MAINTENANCE',
    criterion: 'MATERIAL_NUMBER',
    conditions: plant.readOperation.materialNumber,
    workplaceIds: [String(operation?.properties?.workplaceId)],
    tools: [{ id: 'T-FACE-66', name: 'Face mill D66', description: null }],
    additionalConditions: 'quantity=ge=100',
    forecastedDelays: {
      processAvailability: 0.9,
      performance: 0.95,
      qualityRate: 0.98,
      additionalSetupTime: 600_000,
      intermediateSetupInterval: 500,
      intermediateSetupTime: 300_000,
      staffCapacityFactor: 1,
      skillFactor: 1.1,
    },
  });
  filler.use('workplaceGroupId', groupId);
  // Two user fields on the read operation, so its user fields read in pages of one have a next
  // page: a GET-modify-PUT that keeps every other property.
  const current = operation?.properties ?? {};
  const fields = Array.isArray(current.userFields) ? (current.userFields as { position: number }[]) : [];
  const last = Math.max(0, ...fields.map((field) => field.position));
  await send(t, 'PUT', `/operations/${plant.readOperation.id}`, {
    ...current,
    userFields: [
      ...fields,
      { position: last + 1, value: 'Deburr both faces' },
      { position: last + 2, value: 'Check runout' },
    ],
  });
  await send(t, 'POST', '/workplaces/predictedMalfunctionScenarios', {
    workplaceId: plant.workplaceId,
    startDate: at(3),
    endDate: at(4),
    probability: 0.3,
    description: 'Spindle bearing wear',
  });
}
