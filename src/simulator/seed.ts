// `bridge seed`: creates the demo plant through the API's own create calls with the typed client
// (clients/typescript), as a user of the API would (docs/demo.md, "The demo plant"). Every random
// choice is drawn from one seeded generator before requests run in parallel, so the same seed
// gives the same plant.
import { type BridgeClient, dataOf, type paths } from '../../clients/typescript/src/index.ts';
import {
  BREAK_MINUTES,
  CAPACITY_GROUPS,
  type CapacityGroupSpec,
  DOCUMENTS,
  ERP_CONTEXTS,
  names,
  PRODUCTION_LINES,
  PRODUCTION_RESOURCES,
  ROUTINGS,
  SENSORS,
  SHIFT_DAYS,
  SHIFT_HOURS,
  SHIFT_PATTERN,
  STAFF_PER_GROUP,
  TOOLS,
} from './plant.ts';
import { Random } from './random.ts';

export interface SeedOptions {
  /** Operations to create (production orders are added until there are at least this many). */
  size: number;
  seed: number;
  /** Requests in flight at once while creating production orders. */
  concurrency?: number;
  /** Called after each step of work; `total` is known from the start. */
  onProgress?: (done: number, total: number) => void;
  now?: Date;
}

export interface SeedCounts {
  productionLines: number;
  capacityGroups: number;
  workplaces: number;
  devices: number;
  staffMembers: number;
  shifts: number;
  tools: number;
  toolAssemblyOrders: number;
  documents: number;
  productionOrders: number;
  operations: number;
  completedOperations: number;
  operationsInProgress: number;
  samples: number;
}

interface SeededWorkplace {
  id: string;
  number: string;
  group: CapacityGroupSpec;
}

type OrderBody = paths['/api/v2/productionOrders']['post']['requestBody']['content']['application/json'];

interface PlannedOrder {
  body: OrderBody;
  routing: (typeof ROUTINGS)[number];
}

/** How many orders are completed as history, and how many get an operation in progress. */
const HISTORY_ORDERS = 40;
const SAMPLES_PER_TAG = 30;

export async function seedPlant(bridge: BridgeClient, options: SeedOptions): Promise<SeedCounts> {
  const random = new Random(options.seed);
  const now = options.now ?? new Date();
  const concurrency = options.concurrency ?? 4;

  if (!(await plantIsEmpty(bridge))) {
    throw new Error('the plant is not empty (workplace groups exist): seed an empty database');
  }

  const orders = planOrders(random.fork(), options.size, now);
  const operationCount = orders.reduce((sum, order) => sum + order.routing.steps.length, 0);
  const historyOrders = Math.min(HISTORY_ORDERS, Math.floor(orders.length / 4));
  const machineGroups = CAPACITY_GROUPS.filter((group) => !group.manual);
  const machineCount = machineGroups.reduce((sum, group) => sum + group.workplaces, 0);
  const workplaceCount = CAPACITY_GROUPS.reduce((sum, group) => sum + group.workplaces, 0);

  // Progress: one unit per request-sized step, known before the first request.
  const total =
    orders.length + workplaceCount + machineCount * 2 + CAPACITY_GROUPS.length * STAFF_PER_GROUP + 20;
  let done = 0;
  const step = (units = 1) => {
    done = Math.min(total, done + units);
    options.onProgress?.(done, total);
  };

  // Lines and capacity groups.
  const groupIds = new Map<string, string>();
  for (const group of [...PRODUCTION_LINES, ...CAPACITY_GROUPS]) {
    const created = dataOf(
      await bridge.POST('/api/v2/workplaceGroups', {
        body: {
          number: group.number,
          description: group.description,
          type: group.type,
          erpContextId: ERP_CONTEXTS.plant,
        },
      }),
    );
    groupIds.set(group.number, created.properties.id);
  }
  step(2);
  const groupId = (number: string): string => {
    const id = groupIds.get(number);
    if (id === undefined) throw new Error(`no workplace group ${number}`);
    return id;
  };

  // Workplaces: machines and manual workplaces, each in its capacity group and line.
  const workplaces: SeededWorkplace[] = [];
  for (const group of CAPACITY_GROUPS) {
    for (let n = 1; n <= group.workplaces; n++) {
      const number = `${group.prefix}-${String(n).padStart(2, '0')}`;
      const created = dataOf(
        await bridge.POST('/api/v2/workplaces', {
          body: {
            number,
            description: `${group.description} ${n}`,
            erpContextId: ERP_CONTEXTS.plant,
            isManualWorkplace: group.manual,
            capacityGroupId: groupId(group.number),
            productionLineId: groupIds.get(group.line),
            // Waiting for material until work starts: a workplace produces only with an operation.
            operatingStateId: '010',
          },
        }),
      );
      workplaces.push({ id: created.properties.id, number, group });
      step();
    }
  }
  const inGroup = (group: string) => workplaces.filter((workplace) => workplace.group.number === group);

  // A PLC per machine with its sensors.
  const devices: { id: string }[] = [];
  for (const workplace of workplaces.filter((w) => !w.group.manual)) {
    const created = dataOf(
      await bridge.POST('/api/v2/devices', {
        body: {
          name: `PLC ${workplace.number}`,
          description: `Machine controller of ${workplace.number}`,
          type: 'PLC',
          workplaceId: workplace.id,
          recordedPhysicalQuantities: SENSORS.map(({ tag, name, physicalQuantity, unit }) => ({
            tag,
            name,
            physicalQuantity,
            unit,
          })),
        },
      }),
    );
    devices.push({ id: created.properties.id });
    step();
  }

  // Shifts of every workplace: today and the next days, breaks as gaps.
  const plan = shiftPlan(now);
  let shifts = 0;
  await inBatches(workplaces, concurrency, async (workplace) => {
    const answer = await bridge.PUT('/api/v2/workplaces/{id}/shifts', {
      params: { path: { id: workplace.id } },
      body: plan,
    });
    shifts += dataOf(answer)._embedded.shifts.length;
    step();
  });

  // Staff: each group's workers hold its qualification, some a second one, and follow one shift.
  const staff = new Map<string, StaffRef[]>();
  let staffIndex = 0;
  for (const group of CAPACITY_GROUPS) {
    const ids: StaffRef[] = [];
    for (let n = 0; n < STAFF_PER_GROUP; n++) {
      staffIndex++;
      const qualifications = [group.qualification];
      if (random.chance(0.3)) {
        const other = random.pick(CAPACITY_GROUPS).qualification;
        if (other !== group.qualification) qualifications.push(other);
      }
      const first = random.pick(names.first);
      const last = random.pick(names.last);
      const created = dataOf(
        await bridge.POST('/api/v2/staffMembers', {
          body: {
            staffNumber: `S-${String(staffIndex).padStart(4, '0')}`,
            firstName: first,
            lastName: last,
            email: `${first}.${last}.${staffIndex}@demo-plant.example`.toLowerCase(),
            erpContextId: ERP_CONTEXTS.personnelArea,
            qualifications,
            assignedWorkplaceIds: inGroup(group.number).map((workplace) => workplace.id),
            shiftId: SHIFT_PATTERN[n % SHIFT_PATTERN.length]?.model ?? null,
          },
        }),
      );
      ids.push({ id: created.properties.id });
      step();
    }
    staff.set(group.number, ids);
  }

  // Tools through assembly orders; the first ones are assembled and available, some in between.
  const orderStates = ['INITIATED', 'ASSEMBLED', 'PRESETTING', 'AVAILABLE'];
  for (const [index, description] of TOOLS.entries()) {
    const target = random.pick(workplaces.filter((w) => !w.group.manual));
    const created = dataOf(
      await bridge.POST('/api/v2/tools/assemblyOrders', {
        body: {
          toolNumber: `T-${String(index + 1).padStart(3, '0')}`,
          toolDescription: description,
          targetWorkplaceId: target.id,
          storageLocation: `Rack ${String.fromCharCode(65 + (index % 4))}-${(index % 5) + 1}`,
          lifespan: {
            maximum: 3_600_000 * 40,
            remaining: 3_600_000 * random.int(5, 40),
            warningLimit: 3_600_000 * 4,
          },
        },
      }),
    );
    const advance = index < 6 ? orderStates.length : index < 8 ? random.int(1, 3) : 0;
    for (const state of orderStates.slice(0, advance)) {
      dataOf(
        await bridge.POST('/api/v2/tools/assemblyOrders/{id}/{toolAssemblyOrderStateId}', {
          params: { path: { id: created.properties.id, toolAssemblyOrderStateId: state } },
        }),
      );
    }
    // An available tool was assembled for its target workplace and sits in that machine's magazine.
    const toolId = created.properties.toolId;
    if (advance === orderStates.length && toolId) {
      dataOf(
        await bridge.PUT('/api/v2/tools/{id}/location', {
          params: { path: { id: toolId } },
          body: { workplaceId: target.id, magazineNumber: 1, magazinePlace: index + 1 },
        }),
      );
    }
  }
  step(5);

  // Documents with content.
  for (const document of DOCUMENTS) {
    const created = dataOf(await bridge.POST('/api/v2/documents', { body: document }));
    dataOf(
      await bridge.PUT('/api/v2/documents/{id}/file', {
        params: { path: { id: created.properties.id } },
        body: documentText(document.description),
        headers: { 'content-type': 'text/markdown' },
        bodySerializer: (text) => text,
      }),
    );
  }
  step(5);

  // Production orders with their operations, one request each, in parallel.
  const created: { id: string }[] = new Array(orders.length);
  await inBatches(orders, concurrency, async (order, index) => {
    // Each operation is planned on the capacity group of its routing step.
    const operations = (order.body.operations ?? []).map((operation, step) => ({
      ...operation,
      workplaceGroupId: groupIds.get(order.routing.steps[step]?.group ?? ''),
    }));
    const answer = dataOf(
      await bridge.POST('/api/v2/productionOrders', { body: { ...order.body, operations } }),
    );
    created[index] = { id: answer.properties.id };
    step();
  });

  // History: the oldest orders are completed, each operation set up, processed and finished by
  // a qualified worker. Then one operation per free machine is in setup or processing.
  const groupNumbers = new Map([...groupIds].map(([number, id]) => [id, number]));
  const history = await historyPlan(
    bridge,
    random.fork(),
    created.slice(0, historyOrders + machineCount),
    (groupId) => inGroup(groupNumbers.get(groupId) ?? ''),
    (groupId) => staff.get(groupNumbers.get(groupId) ?? '') ?? [],
  );
  let completedOperations = 0;
  for (const item of history.slice(0, historyOrders).flat()) {
    await runOperation(bridge, item, ['SETUP', 'PROCESSING', 'COMPLETED']);
    completedOperations++;
  }
  step(3);
  const busy = new Set<string>();
  let operationsInProgress = 0;
  for (const items of history.slice(historyOrders)) {
    const item = items[0];
    if (!item || busy.has(item.workplace.id) || item.workplace.group.manual) continue;
    busy.add(item.workplace.id);
    const processing = random.chance(0.7);
    await runOperation(bridge, item, processing ? ['SETUP', 'PROCESSING'] : ['SETUP']);
    await setOperatingState(bridge, item.workplace.id, processing ? '000' : '020');
    operationsInProgress++;
  }
  // Idle machines wait for material (as created) or stand in a malfunction.
  for (const workplace of workplaces) {
    if (busy.has(workplace.id) || workplace.group.manual || !random.chance(0.25)) continue;
    await setOperatingState(bridge, workplace.id, '110');
  }
  step(3);

  // The last half hour of sensor values.
  let samples = 0;
  for (const device of devices) {
    const elements = [];
    for (let i = SAMPLES_PER_TAG; i > 0; i--) {
      const timestamp = new Date(now.getTime() - i * 60_000).toISOString();
      for (const sensor of SENSORS) {
        elements.push({
          tag: sensor.tag,
          timestamp,
          value: round(random.gaussian(sensor.mean, sensor.spread)),
        });
      }
    }
    dataOf(
      await bridge.POST('/api/v2/devices/{id}/recordedTimeSeries', {
        params: { path: { id: device.id } },
        body: { elements },
      }),
    );
    samples += elements.length;
    step();
  }
  options.onProgress?.(total, total);

  return {
    productionLines: PRODUCTION_LINES.length,
    capacityGroups: CAPACITY_GROUPS.length,
    workplaces: workplaces.length,
    devices: devices.length,
    staffMembers: staffIndex,
    shifts,
    tools: TOOLS.length,
    toolAssemblyOrders: TOOLS.length,
    documents: DOCUMENTS.length,
    productionOrders: orders.length,
    operations: operationCount,
    completedOperations,
    operationsInProgress,
    samples,
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Whether the plant has no workplace groups yet (nothing was seeded or created). */
export async function plantIsEmpty(bridge: BridgeClient): Promise<boolean> {
  const page = dataOf(await bridge.GET('/api/v2/workplaceGroups', { params: { query: { limit: 1 } } }));
  return page.pagination.total === 0;
}

async function setOperatingState(bridge: BridgeClient, id: string, operatingStateId: string): Promise<void> {
  dataOf(
    await bridge.POST('/api/v2/workplaces/{id}/operatingState/{operatingStateId}', {
      params: { path: { id, operatingStateId } },
    }),
  );
}

/** Production orders until `size` operations are planned, spread from 3 days ago to 10 days ahead. */
function planOrders(random: Random, size: number, now: Date): PlannedOrder[] {
  const orders: PlannedOrder[] = [];
  let operations = 0;
  const day = 86_400_000;
  while (operations < size) {
    const routing = random.pick(ROUTINGS);
    const number = `PO-${String(orders.length + 1).padStart(6, '0')}`;
    const quantity = random.int(2, 40) * 5;
    // Older orders first: the order number grows with the planned start.
    const start = now.getTime() - 3 * day + Math.floor((13 * day * orders.length) / Math.max(1, size / 3));
    const end = start + day * random.int(1, 4);
    orders.push({
      routing,
      body: {
        number,
        description: `${routing.description} x ${quantity}`,
        erpContextId: ERP_CONTEXTS.plant,
        material: { number: routing.material, description: routing.description },
        targetQuantity: quantity,
        quantityUnit: 'pcs',
        basicStartDate: new Date(start).toISOString(),
        basicEndDate: new Date(end).toISOString(),
        deliveryDate: new Date(end + day).toISOString(),
        operations: routing.steps.map((step, index) => ({
          number: `${number}-${String((index + 1) * 10).padStart(4, '0')}`,
          description: step.description,
          erpContextId: ERP_CONTEXTS.plant,
          sequence: index,
          material: { number: routing.material, description: routing.description },
          targetQuantity: quantity,
          quantityUnit: 'pcs',
          targetTimePerUnit: step.secondsPerUnit * 1000,
          targetSetupTime: step.setupMinutes * 60_000,
          productionResourcesAndTools: (PRODUCTION_RESOURCES[step.group] ?? []).map((resource, place) => ({
            itemNumber: String((place + 1) * 10).padStart(4, '0'),
            type: 'E',
            identifier: resource.number,
            description: resource.description,
            quantity: 1,
          })),
        })),
      },
    });
    operations += routing.steps.length;
  }
  return orders;
}

interface SeededShift {
  name: string;
  shiftModelId: string;
  shiftTypeId: string;
  startDate: string;
  endDate: string;
}

/** The shift plan of one workplace: every shift that ends after midnight today, for SHIFT_DAYS days. */
function shiftPlan(now: Date): {
  startDate: string;
  endDate: string;
  shifts: SeededShift[];
} {
  const hour = 3_600_000;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const shifts: SeededShift[] = [];
  for (let day = -1; day < SHIFT_DAYS; day++) {
    for (const shift of SHIFT_PATTERN) {
      const start = today + day * 86_400_000 + shift.startHour * hour;
      const breakStart = today + day * 86_400_000 + shift.breakHour * hour;
      const breakEnd = breakStart + BREAK_MINUTES * 60_000;
      const end = start + SHIFT_HOURS * hour;
      for (const [from, to] of [
        [start, breakStart],
        [breakEnd, end],
      ] as const) {
        if (to <= today) continue;
        shifts.push({
          name: shift.name,
          shiftModelId: shift.model,
          shiftTypeId: shift.shiftTypeId,
          startDate: new Date(from).toISOString(),
          endDate: new Date(to).toISOString(),
        });
      }
    }
  }
  const starts = shifts.map((shift) => Date.parse(shift.startDate));
  return {
    startDate: new Date(Math.min(...starts)).toISOString(),
    endDate: new Date(Math.max(...starts) + 1).toISOString(),
    shifts,
  };
}

interface StaffRef {
  id: string;
}

interface HistoryItem {
  operationId: string;
  workplace: SeededWorkplace;
  staffMember: StaffRef;
}

/** For each order: its operations in sequence, each with a workplace of its group and a worker. */
async function historyPlan(
  bridge: BridgeClient,
  random: Random,
  orders: { id: string }[],
  workplacesOf: (groupId: string) => SeededWorkplace[],
  staffOf: (groupId: string) => StaffRef[],
): Promise<HistoryItem[][]> {
  const plans: HistoryItem[][] = [];
  for (const order of orders) {
    const answer = dataOf(
      await bridge.GET('/api/v2/operations', { params: { query: { productionOrderId: order.id } } }),
    );
    const operations = [...answer._embedded.operations];
    operations.sort((a, b) => a.properties.sequence - b.properties.sequence);
    plans.push(
      operations.map(({ properties }) => ({
        operationId: properties.id,
        workplace: random.pick(workplacesOf(properties.workplaceGroupId ?? '')),
        staffMember: random.pick(staffOf(properties.workplaceGroupId ?? '')),
      })),
    );
  }
  return plans;
}

/** Moves an operation through `phases` on its workplace, with the worker's activity around it. */
async function runOperation(bridge: BridgeClient, item: HistoryItem, phases: string[]): Promise<void> {
  for (const phase of phases) {
    dataOf(
      await bridge.POST('/api/v2/operations/{id}/{operationPhaseId}', {
        params: { path: { id: item.operationId, operationPhaseId: phase } },
        body: { workplaceId: item.workplace.id, staffMemberId: item.staffMember.id },
      }),
    );
    const activity = phase === 'SETUP' ? 'STARTED' : phase === 'COMPLETED' ? 'FINISHED' : undefined;
    if (activity) {
      dataOf(
        await bridge.POST('/api/v2/staffMembers/{id}/activities', {
          params: { path: { id: item.staffMember.id } },
          body: {
            operationId: item.operationId,
            ...(activity === 'STARTED' ? { workplaceId: item.workplace.id } : {}),
            activity,
          },
        }),
      );
    }
  }
}

/** Runs `work` over `items` with at most `concurrency` at a time; rejects on the first failure. */
async function inBatches<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function documentText(title: string): string {
  return `# ${title}\n\nDemo plant document. Follow the steps of the routing; report deviations to the shift lead.\n`;
}
