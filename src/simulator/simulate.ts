// `bridge simulate`: drives the plant through the service's HTTP API with the typed client
// (clients/typescript) as a real client would: a token, links from the entry point and from the
// resources, nothing else (docs/demo.md, "The simulator"). Each step is one small change, drawn
// from a seeded generator.
import {
  BridgeApiError,
  type BridgeClient,
  dataOf,
  type FollowOptions,
} from '../../clients/typescript/src/index.ts';
import { SENSORS } from './plant.ts';
import { Random } from './random.ts';

type Links = Record<string, { href: string } | undefined>;
/** Links of the entry point, by relation. */
type EntryLinks = Links;

interface Resource {
  // biome-ignore lint/suspicious/noExplicitAny: HAL properties are read by name
  properties: Record<string, any>;
  _links: Links;
}

interface SimOperation {
  href: string;
  id: string;
  phase: string;
  links: Links;
  /** The worker whose activity is open on it (or was, before an interruption). */
  staffMemberId: string | undefined;
}

interface SimWorkplace {
  id: string;
  number: string;
  href: string;
  manual: boolean;
  capacityGroupId: string;
  /** Operating state code, as read at connect and then as the simulator set it. */
  state: string | undefined;
  /** The state to return to after a break. */
  beforeBreak: string | undefined;
  shifts: { start: number; end: number }[];
  devices: { href: string; tags: string[] }[];
  operation: SimOperation | undefined;
}

interface SimStaff {
  id: string;
  activitiesHref: string;
  workplaceIds: string[];
}

export interface SimulatorOptions {
  seed: number;
  /** The simulated time for shift and break decisions and sample timestamps; the system time by default. */
  now?: () => Date;
}

/** What one step did, for counting and for tests. */
export type StepKind =
  | 'operationPhase'
  | 'operatingState'
  | 'break'
  | 'sensorValues'
  | 'outputQuantity'
  | 'toolAssemblyOrder'
  | 'idle';

/** Operating state codes (docs/api.md, "States and transitions"). */
const STATE = {
  production: '000',
  waitingForMaterial: '010',
  setup: '020',
  malfunction: '110',
  break: '993',
} as const;

export class Simulator {
  readonly #bridge: BridgeClient;
  readonly #random: Random;
  readonly #now: () => Date;
  readonly #links: EntryLinks;
  readonly #workplaces: SimWorkplace[];
  readonly #staff: SimStaff[];
  readonly #busyStaff = new Set<string>();
  readonly #claimed = new Set<string>();
  readonly #outputQuantities: boolean;
  /** Steps done, by kind. */
  readonly counts = new Map<StepKind, number>();

  private constructor(
    bridge: BridgeClient,
    options: SimulatorOptions,
    state: { links: EntryLinks; workplaces: SimWorkplace[]; staff: SimStaff[]; outputQuantities: boolean },
  ) {
    this.#bridge = bridge;
    this.#random = new Random(options.seed);
    this.#now = options.now ?? (() => new Date());
    this.#links = state.links;
    this.#workplaces = state.workplaces;
    this.#staff = state.staff;
    this.#outputQuantities = state.outputQuantities;
  }

  /** Reads the plant through the API: workplaces, their shifts, devices and current work; staff. */
  static async connect(bridge: BridgeClient, options: SimulatorOptions): Promise<Simulator> {
    const links: EntryLinks = dataOf(await bridge.GET('/api/v2'))._links;
    const now = (options.now ?? (() => new Date()))();
    const workplaces: SimWorkplace[] = [];
    for (const item of await collect(bridge, linkOf(links, 'workplaces'), 'workplaces')) {
      const workplace: SimWorkplace = {
        id: item.properties.id,
        number: item.properties.number,
        href: linkOf(item._links, 'self'),
        manual: item.properties.isManualWorkplace,
        capacityGroupId: item.properties.capacityGroupId,
        state: item.properties.operatingState?.code,
        beforeBreak: undefined,
        shifts: [],
        devices: [],
        operation: undefined,
      };
      const from = new Date(now.getTime() - 86_400_000).toISOString();
      const to = new Date(now.getTime() + 86_400_000).toISOString();
      const shifts = await collect(bridge, linkOf(item._links, 'shifts'), 'shifts', {
        startDate: from,
        endDate: to,
      });
      workplace.shifts = shifts.map((shift) => ({
        start: Date.parse(shift.properties.startDate),
        end: Date.parse(shift.properties.endDate),
      }));
      for (const device of await collect(bridge, linkOf(item._links, 'devices'), 'devices')) {
        workplace.devices.push({
          href: linkOf(device._links, 'recordedTimeSeries'),
          tags: device.properties.recordedPhysicalQuantities.map((quantity: { tag: string }) => quantity.tag),
        });
      }
      workplaces.push(workplace);
    }
    const staff: SimStaff[] = (await collect(bridge, linkOf(links, 'staffMembers'), 'staffMembers')).map(
      (member) => ({
        id: member.properties.id,
        activitiesHref: linkOf(member._links, 'addActivity'),
        workplaceIds: member.properties.assignedWorkplaceIds,
      }),
    );
    const simulator = new Simulator(bridge, options, {
      links,
      workplaces,
      staff,
      outputQuantities: await probeOutputQuantities(bridge, links),
    });
    await simulator.#adoptRunningWork();
    return simulator;
  }

  /** Operations already on a workplace (seeded in setup or processing) are carried on. */
  async #adoptRunningWork(): Promise<void> {
    for (const workplace of this.#workplaces) {
      const operations = await collect(this.#bridge, linkOf(this.#links, 'operations'), 'operations', {
        workplaceId: workplace.id,
      });
      const running = operations.find((operation) =>
        ['SETUP', 'PROCESSING', 'INTERRUPTED', 'TRAINING'].includes(operation.properties.operationPhaseId),
      );
      if (!running) continue;
      const phases = await this.#get(linkOf(running._links, 'recordedOperationPhases'), { limit: 1 });
      const latest = phases._embedded.recordedOperationPhases[0] as Resource | undefined;
      const staffMemberId = latest?.properties.staffMemberId ?? undefined;
      workplace.operation = operationOf(running, staffMemberId);
      this.#claimed.add(running.properties.id);
      if (staffMemberId) this.#busyStaff.add(staffMemberId);
    }
  }

  /** One change to the plant; returns what kind it was. */
  async step(): Promise<StepKind> {
    const kind = await this.#choose();
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    return kind;
  }

  async #choose(): Promise<StepKind> {
    const workplace = this.#random.pick(this.#workplaces);
    // Breaks follow the shifts: a workplace outside its shifts pauses, and resumes after.
    const onBreak = !this.#inShift(workplace);
    if (onBreak !== (workplace.state === STATE.break)) {
      if (onBreak) {
        workplace.beforeBreak = workplace.state;
        await this.#setState(workplace, STATE.break);
      } else {
        await this.#setState(workplace, workplace.beforeBreak ?? STATE.waitingForMaterial);
      }
      return 'break';
    }
    const roll = this.#random.next();
    if (roll < 0.3) {
      const machine = this.#random.pick(this.#workplaces.filter((w) => w.devices.length > 0));
      return this.#reportSensors(machine);
    }
    if (roll < 0.4) return this.#advanceToolAssemblyOrder();
    if (onBreak) return 'idle';
    if (roll < 0.5 && this.#outputQuantities && workplace.operation?.phase === 'PROCESSING') {
      return this.#bookOutput(workplace, workplace.operation);
    }
    return this.#work(workplace);
  }

  #inShift(workplace: SimWorkplace): boolean {
    // A workplace without shifts works around the clock.
    if (workplace.shifts.length === 0) return true;
    const now = this.#now().getTime();
    return workplace.shifts.some((shift) => shift.start <= now && now < shift.end);
  }

  /** The operation on the workplace moves one phase on, or a new one is set up. */
  async #work(workplace: SimWorkplace): Promise<StepKind> {
    const operation = workplace.operation;
    if (!operation) return this.#startNext(workplace);
    const roll = this.#random.next();
    switch (operation.phase) {
      case 'SETUP':
      case 'TRAINING':
        await this.#changePhase(workplace, operation, 'PROCESSING');
        await this.#setState(workplace, STATE.production);
        return 'operationPhase';
      case 'PROCESSING':
        if (roll < 0.2) {
          await this.#changePhase(workplace, operation, 'INTERRUPTED');
          await this.#activity(operation, workplace, 'INTERRUPTED');
          await this.#setState(
            workplace,
            this.#random.chance(0.5) ? STATE.malfunction : STATE.waitingForMaterial,
          );
          return 'operationPhase';
        }
        if (roll < 0.55) {
          if (this.#outputQuantities) await this.#bookOutput(workplace, operation);
          await this.#changePhase(workplace, operation, 'COMPLETED');
          await this.#activity(operation, workplace, 'FINISHED');
          if (operation.staffMemberId) this.#busyStaff.delete(operation.staffMemberId);
          workplace.operation = undefined;
          await this.#setState(workplace, STATE.waitingForMaterial);
          return 'operationPhase';
        }
        // Running on: the operating state is production (it may have been left otherwise).
        if (workplace.state !== STATE.production) {
          await this.#setState(workplace, STATE.production);
          return 'operatingState';
        }
        return workplace.devices.length > 0 ? this.#reportSensors(workplace) : 'idle';
      case 'INTERRUPTED':
        await this.#changePhase(workplace, operation, 'PROCESSING');
        await this.#activity(operation, workplace, 'STARTED');
        await this.#setState(workplace, STATE.production);
        return 'operationPhase';
      default:
        // Someone else moved it on (COMPLETED, CLOSED, back to RELEASED): let it go.
        workplace.operation = undefined;
        return 'idle';
    }
  }

  /** Takes a released operation of the workplace's capacity group and sets it up with a worker. */
  async #startNext(workplace: SimWorkplace): Promise<StepKind> {
    const page = await this.#get(linkOf(this.#links, 'operations'), {
      operationPhaseId: 'RELEASED',
      limit: 100,
    });
    const candidates = (page._embedded.operations as Resource[]).filter(
      (operation) =>
        operation.properties.workplaceGroupId === workplace.capacityGroupId &&
        !this.#claimed.has(operation.properties.id),
    );
    // An operation starts when the ones before it in its order are done (a few are looked at).
    let candidate: Resource | undefined;
    for (const operation of candidates.slice(0, 5)) {
      if (await this.#predecessorsDone(operation)) {
        candidate = operation;
        break;
      }
    }
    const free = this.#staff.filter(
      (member) => member.workplaceIds.includes(workplace.id) && !this.#busyStaff.has(member.id),
    );
    if (!candidate || free.length === 0) return 'idle';
    const worker = this.#random.pick(free);
    const operation = operationOf(candidate, worker.id);
    this.#claimed.add(operation.id);
    this.#busyStaff.add(worker.id);
    workplace.operation = operation;
    await this.#changePhase(workplace, operation, 'SETUP');
    await this.#activity(operation, workplace, 'STARTED');
    await this.#setState(workplace, STATE.setup);
    return 'operationPhase';
  }

  async #predecessorsDone(operation: Resource): Promise<boolean> {
    const order = (await this.#get(linkOf(operation._links, 'productionOrder'))) as Resource;
    const siblings = await collect(this.#bridge, linkOf(order._links, 'operations'), 'operations');
    return siblings.every(
      (sibling) =>
        sibling.properties.sequence >= operation.properties.sequence ||
        ['COMPLETED', 'CLOSED'].includes(sibling.properties.operationPhaseId),
    );
  }

  /** Follows the operation's action link to `phase`; a 409 means it moved meanwhile: reread it. */
  async #changePhase(workplace: SimWorkplace, operation: SimOperation, phase: string): Promise<void> {
    const action = operation.links[`changeOperationPhaseTo${phase}`]?.href;
    if (!action)
      throw new Error(`operation ${operation.id} in ${operation.phase} offers no change to ${phase}`);
    const body =
      phase === 'SETUP' ? { workplaceId: workplace.id, staffMemberId: operation.staffMemberId } : {};
    const answer = await this.#bridge.follow<Resource>(action, { method: 'POST', body });
    const current = answer.response.status === 409 ? await this.#get(operation.href) : dataOf(answer);
    Object.assign(operation, operationOf(current, operation.staffMemberId));
  }

  async #activity(
    operation: SimOperation,
    workplace: SimWorkplace,
    activity: 'STARTED' | 'INTERRUPTED' | 'FINISHED',
  ): Promise<void> {
    const member = this.#staff.find((staff) => staff.id === operation.staffMemberId);
    if (!member) return;
    // 409: the worker's activity was already in that state (closed or opened by someone else).
    const answer = await this.#bridge.follow(member.activitiesHref, {
      method: 'POST',
      body: { operationId: operation.id, workplaceId: workplace.id, activity },
    });
    if (answer.response.status !== 409) dataOf(answer);
  }

  async #setState(workplace: SimWorkplace, code: string): Promise<void> {
    if (workplace.state === code) return;
    await this.#post(`${workplace.href}/operatingState/${code}`);
    workplace.state = code;
  }

  /** Current values of the machine's sensors: idle machines stand still and cool down. */
  async #reportSensors(workplace: SimWorkplace): Promise<StepKind> {
    const device = workplace.devices[0];
    if (!device) return 'idle';
    const running = workplace.state === STATE.production || workplace.state === undefined;
    const timestamp = this.#now().toISOString();
    const elements = device.tags.map((tag) => {
      const sensor = SENSORS.find((s) => s.tag === tag);
      const mean = sensor?.mean ?? 1;
      const spread = sensor?.spread ?? 0.1;
      const value = running
        ? this.#random.gaussian(mean, spread)
        : tag === 'spindleTemperature'
          ? this.#random.gaussian(26, 1)
          : tag === 'spindleSpeed'
            ? 0
            : this.#random.gaussian(mean * 0.05, spread * 0.05);
      return { tag, timestamp, value: Math.round(value * 100) / 100 };
    });
    await this.#post(device.href, { elements });
    return 'sensorValues';
  }

  /** Books good parts (now and then some scrap) on the operation in processing. */
  async #bookOutput(workplace: SimWorkplace, operation: SimOperation): Promise<StepKind> {
    const scrap = this.#random.chance(0.1);
    await this.#post(`${operation.href}/recordedOutputQuantities`, {
      quantity: scrap ? 1 : this.#random.int(1, 10),
      quantityType: scrap ? 'SCRAP' : 'YIELD',
      workplaceId: workplace.id,
      ...(operation.staffMemberId ? { staffMemberId: operation.staffMemberId } : {}),
    });
    return 'outputQuantity';
  }

  /** Moves a tool assembly order one state on; when all are done, a new one is requested. */
  async #advanceToolAssemblyOrder(): Promise<StepKind> {
    const orders = await collect(
      this.#bridge,
      linkOf(this.#links, 'toolAssemblyOrders'),
      'toolAssemblyOrders',
    );
    const open = orders.filter((order) => order._links.updateToolAssemblyOrderState);
    if (open.length === 0) {
      const workplace = this.#random.pick(this.#workplaces.filter((w) => !w.manual));
      await this.#post(linkOf(this.#links, 'toolAssemblyOrders'), {
        toolDescription: `Replacement tool for ${workplace.number}`,
        targetWorkplaceId: workplace.id,
      });
      return 'toolAssemblyOrder';
    }
    const order = this.#random.pick(open);
    // Rarely a tool cannot be assembled.
    const rel =
      this.#random.chance(0.05) && order._links.setToolAssemblyOrderStateUnavailable
        ? 'setToolAssemblyOrderStateUnavailable'
        : 'updateToolAssemblyOrderState';
    const answer = await this.#bridge.follow(linkOf(order._links, rel), { method: 'POST' });
    if (answer.response.status !== 409) dataOf(answer);
    return 'toolAssemblyOrder';
  }

  /** A resource or page by its href; any answer but a success throws BridgeApiError. */
  // biome-ignore lint/suspicious/noExplicitAny: HAL bodies are read by property name
  async #get(href: string, query?: FollowOptions['query']): Promise<any> {
    return dataOf(await this.#bridge.follow(href, { query }));
  }

  /** Posts to an href; any answer but a success throws BridgeApiError. */
  async #post(href: string, body?: unknown): Promise<void> {
    dataOf(await this.#bridge.follow(href, { method: 'POST', body }));
  }
}

export interface RunOptions {
  /** Steps to take; unbounded when undefined. */
  steps?: number;
  signal?: AbortSignal;
  /** Called when a step fails with an answer it did not expect; the run goes on. */
  onError?: (error: Error) => void;
}

/** Takes `steps` steps one after the other (the CLI and the demo pace them with a PollingLoop). */
export async function runSteps(simulator: Simulator, options: RunOptions): Promise<number> {
  let done = 0;
  while ((options.steps === undefined || done < options.steps) && !options.signal?.aborted) {
    try {
      await simulator.step();
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      options.onError?.(error);
      if (!(error instanceof BridgeApiError)) throw error;
    }
    done++;
  }
  return done;
}

function linkOf(links: Links, rel: string): string {
  const found = links[rel]?.href;
  if (!found) throw new Error(`no ${rel} link`);
  return found;
}

function operationOf(resource: Resource, staffMemberId: string | undefined): SimOperation {
  return {
    href: linkOf(resource._links, 'self'),
    id: resource.properties.id,
    phase: resource.properties.operationPhaseId,
    links: resource._links,
    staffMemberId,
  };
}

/** Every item of a collection, following its `next` links (they carry the query on). */
async function collect(
  bridge: BridgeClient,
  href: string,
  name: string,
  query?: FollowOptions['query'],
): Promise<Resource[]> {
  interface Page {
    _embedded?: Record<string, Resource[] | undefined>;
    _links?: Links;
  }
  const items: Resource[] = [];
  let page = dataOf(await bridge.follow<Page>(href, { query }));
  for (;;) {
    items.push(...(page._embedded?.[name] ?? []));
    const next = page._links?.next?.href;
    if (!next) return items;
    page = dataOf(await bridge.follow<Page>(next));
  }
}

/** Output quantities come with a later version of the API: booked only where its OpenAPI has them. */
async function probeOutputQuantities(bridge: BridgeClient, links: EntryLinks): Promise<boolean> {
  const openapi = dataOf(await bridge.follow<{ paths?: object }>(linkOf(links, 'openapi')));
  return Object.keys(openapi.paths ?? {}).some((path) => path.endsWith('/recordedOutputQuantities'));
}
