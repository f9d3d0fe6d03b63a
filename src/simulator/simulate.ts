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
  /** Standard values of the operation (ms; units), with plausible defaults where it has none. */
  targetTimePerUnit: number;
  targetSetupTime: number;
  targetQuantity: number;
  /** Good units booked so far. */
  done: number;
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
  /** When the break began (simulated ms): what was due is put off by the break's length. */
  breakSince: number | undefined;
  shifts: { start: number; end: number }[];
  devices: { href: string; tags: string[] }[];
  operation: SimOperation | undefined;
  /** When the next thing happens here (simulated ms): setup done, units to book, a stop ends. */
  dueAt: number;
  /** Units are counted from here while processing. */
  producingSince: number;
  /** How fast this workplace runs against the target time per unit (performance, below 1). */
  speed: number;
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
  | 'ticket'
  | 'idle';

/** Operating state codes (docs/api.md, "States and transitions"). */
const STATE = {
  production: '000',
  waitingForMaterial: '010',
  setup: '020',
  malfunction: '110',
  break: '993',
} as const;

/** What the simulated shop floor raises tickets about. */
const TICKET_PROBLEMS = [
  { title: 'Guard door sensor fault', priority: 'HIGH' },
  { title: 'Material shortage', priority: 'MEDIUM' },
  { title: 'Surface scratches on parts', priority: 'LOW' },
  { title: 'Coolant leak', priority: 'VERY_HIGH' },
] as const;

const MINUTE = 60_000;
/**
 * The plant's pace (docs/demo.md, "The simulator"): units are booked at the operation's target
 * time per unit divided by the workplace's speed, in batches of about a minute; a workplace stops
 * now and then (a malfunction or no material) for a few minutes; a few units are scrap.
 */
const PACE = {
  /** The workplace's speed against the target time per unit is drawn from this range. */
  speed: [0.82, 0.97],
  /** Units are booked about this often (or one by one when a unit takes longer). */
  bookingEvery: MINUTE,
  /** Mean processing time between two unplanned stops. */
  meanTimeBetweenStops: 35 * MINUTE,
  /** Length of an unplanned stop. */
  stop: [2 * MINUTE, 7 * MINUTE],
  /** The share of units that are scrap. */
  scrap: 0.03,
  /** Setup takes the operation's target setup time times a factor from this range. */
  setup: [0.9, 1.25],
  /** Waiting for the next operation's material after one is completed. */
  changeover: [MINUTE, 4 * MINUTE],
  /** Defaults for operations without standard values. */
  timePerUnit: 60_000,
  setupTime: 15 * MINUTE,
  quantity: 50,
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
  /** Tickets this simulator raised and has not closed yet (their self links), oldest first. */
  readonly #openTickets: string[] = [];
  /** Production orders with an operation in processing, newest last: their next operations come next. */
  readonly #ordersInProgress: string[] = [];
  readonly #outputQuantities: boolean;
  /** The quality details a machine books yield and scrap with; empty where the API has none. */
  readonly #qualityDetails: QualityDetailIds;
  /** Steps done, by kind. */
  readonly counts = new Map<StepKind, number>();

  private constructor(
    bridge: BridgeClient,
    options: SimulatorOptions,
    state: {
      links: EntryLinks;
      workplaces: SimWorkplace[];
      staff: SimStaff[];
      outputQuantities: boolean;
      qualityDetails: QualityDetailIds;
    },
  ) {
    this.#bridge = bridge;
    this.#random = new Random(options.seed);
    this.#now = options.now ?? (() => new Date());
    this.#links = state.links;
    this.#workplaces = state.workplaces;
    this.#staff = state.staff;
    this.#outputQuantities = state.outputQuantities;
    this.#qualityDetails = state.qualityDetails;
    for (const workplace of this.#workplaces)
      workplace.speed = PACE.speed[0] + this.#random.next() * (PACE.speed[1] - PACE.speed[0]);
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
        breakSince: undefined,
        shifts: [],
        devices: [],
        operation: undefined,
        dueAt: now.getTime(),
        producingSince: now.getTime(),
        speed: 1,
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
      qualityDetails: await qualityDetailIds(bridge, links),
    });
    await simulator.#adoptRunningWork(now.getTime());
    return simulator;
  }

  /** Operations already on a workplace (seeded in setup or processing) are carried on. */
  async #adoptRunningWork(now: number): Promise<void> {
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
      const operation = operationOf(running, staffMemberId);
      operation.done = await this.#yieldOf(operation);
      workplace.operation = operation;
      if (operation.phase !== 'SETUP' && operation.phase !== 'TRAINING') this.#orderInProgress(operation);
      // The phase began when it was recorded: a setup ends after its setup time from then.
      const since = Math.min(now, Date.parse(latest?.properties.startDate ?? '') || now);
      workplace.producingSince = since;
      workplace.dueAt =
        operation.phase === 'PROCESSING'
          ? since + this.#batch(workplace, operation).time
          : operation.phase === 'INTERRUPTED'
            ? now
            : since + operation.targetSetupTime;
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
    const now = this.#now().getTime();
    // Breaks follow the shifts: a workplace outside its shifts pauses, and resumes after.
    for (const workplace of this.#workplaces) {
      const onBreak = !this.#inShift(workplace, now);
      if (onBreak === (workplace.state === STATE.break)) continue;
      if (onBreak) {
        workplace.beforeBreak = workplace.state;
        workplace.breakSince = now;
        await this.#setState(workplace, STATE.break);
      } else {
        const paused = now - (workplace.breakSince ?? now);
        workplace.dueAt += paused;
        workplace.producingSince += paused;
        workplace.breakSince = undefined;
        await this.#setState(workplace, workplace.beforeBreak ?? STATE.waitingForMaterial);
      }
      return 'break';
    }
    // The workplace whose next event is the most overdue.
    let due: SimWorkplace | undefined;
    for (const workplace of this.#workplaces) {
      if (workplace.state === STATE.break || workplace.dueAt > now) continue;
      if (!due || workplace.dueAt < due.dueAt) due = workplace;
    }
    if (due) return this.#work(due, now);
    // Nothing due: the machines report their sensors, now and then a tool order moves on or a
    // ticket is raised or closed.
    if (this.#links.tickets && this.#random.chance(0.1)) return this.#ticket();
    if (this.#random.chance(0.15)) return this.#advanceToolAssemblyOrder();
    const machines = this.#workplaces.filter((w) => w.devices.length > 0);
    return machines.length > 0 ? this.#reportSensors(this.#random.pick(machines)) : 'idle';
  }

  #inShift(workplace: SimWorkplace, now: number): boolean {
    // A workplace without shifts works around the clock.
    if (workplace.shifts.length === 0) return true;
    return workplace.shifts.some((shift) => shift.start <= now && now < shift.end);
  }

  /** Units per booking and the time they take at this workplace. */
  #batch(workplace: SimWorkplace, operation: SimOperation): { units: number; time: number } {
    const perUnit = operation.targetTimePerUnit / workplace.speed;
    const units = Math.max(1, Math.round(PACE.bookingEvery / perUnit));
    return { units, time: units * perUnit };
  }

  #between(range: readonly [number, number]): number {
    return range[0] + this.#random.next() * (range[1] - range[0]);
  }

  /** What is due at the workplace: the next operation, the end of a setup or stop, units to book. */
  async #work(workplace: SimWorkplace, now: number): Promise<StepKind> {
    const operation = workplace.operation;
    if (!operation) return this.#startNext(workplace, now);
    switch (operation.phase) {
      case 'SETUP':
      case 'TRAINING':
        if (!(await this.#changePhase(workplace, operation, 'PROCESSING', now))) return 'idle';
        await this.#setState(workplace, STATE.production);
        this.#produceFrom(workplace, operation, now);
        return 'operationPhase';
      case 'INTERRUPTED':
        if (!(await this.#changePhase(workplace, operation, 'PROCESSING', now))) return 'idle';
        await this.#activity(operation, workplace, 'STARTED');
        await this.#setState(workplace, STATE.production);
        this.#produceFrom(workplace, operation, now);
        return 'operationPhase';
      case 'PROCESSING':
        return this.#produce(workplace, operation, now);
      default:
        // Someone else moved it on (COMPLETED, CLOSED, back to RELEASED): let it go.
        this.#release(workplace, operation, now);
        return 'idle';
    }
  }

  #produceFrom(workplace: SimWorkplace, operation: SimOperation, now: number): void {
    this.#orderInProgress(operation);
    workplace.producingSince = now;
    workplace.dueAt = now + this.#batch(workplace, operation).time;
  }

  /** Books the units made since the last booking; then completes, stops now and then, or runs on. */
  async #produce(workplace: SimWorkplace, operation: SimOperation, now: number): Promise<StepKind> {
    // Running on: the operating state is production (it may have been left otherwise).
    if (workplace.state !== STATE.production) {
      await this.#setState(workplace, STATE.production);
      this.#produceFrom(workplace, operation, now);
      return 'operatingState';
    }
    const { units, time } = this.#batch(workplace, operation);
    const made = Math.min(units, Math.max(1, operation.targetQuantity - operation.done));
    let scrap = 0;
    for (let unit = 0; unit < made; unit++) if (this.#random.chance(PACE.scrap)) scrap++;
    if (this.#outputQuantities) {
      if (made > scrap) await this.#bookOutput(workplace, operation, made - scrap, 'YIELD');
      if (scrap > 0) await this.#bookOutput(workplace, operation, scrap, 'SCRAP');
    }
    operation.done += made - scrap;
    workplace.producingSince += time;
    if (operation.done >= operation.targetQuantity) {
      if (!(await this.#changePhase(workplace, operation, 'COMPLETED', now))) return 'outputQuantity';
      await this.#activity(operation, workplace, 'FINISHED');
      this.#release(workplace, operation, now);
      await this.#setState(workplace, STATE.waitingForMaterial);
      return 'operationPhase';
    }
    // An unplanned stop: as likely as its mean time between stops says for the time just worked.
    if (this.#random.chance(time / PACE.meanTimeBetweenStops)) {
      if (!(await this.#changePhase(workplace, operation, 'INTERRUPTED', now))) return 'outputQuantity';
      await this.#activity(operation, workplace, 'INTERRUPTED');
      await this.#setState(
        workplace,
        this.#random.chance(0.6) ? STATE.malfunction : STATE.waitingForMaterial,
      );
      workplace.dueAt = now + this.#between(PACE.stop);
      return 'operationPhase';
    }
    workplace.dueAt = Math.max(now, workplace.producingSince) + time;
    return this.#outputQuantities ? 'outputQuantity' : 'idle';
  }

  /** The workplace lets go of the operation and waits for the next one's material. */
  #release(workplace: SimWorkplace, operation: SimOperation, now: number): void {
    if (operation.staffMemberId) this.#busyStaff.delete(operation.staffMemberId);
    workplace.operation = undefined;
    workplace.dueAt = now + this.#between(PACE.changeover);
  }

  #orderInProgress(operation: SimOperation): void {
    const order = operation.links.productionOrder?.href;
    if (!order) return;
    const known = this.#ordersInProgress.indexOf(order);
    if (known >= 0) this.#ordersInProgress.splice(known, 1);
    this.#ordersInProgress.push(order);
    if (this.#ordersInProgress.length > 50) this.#ordersInProgress.shift();
  }

  /** Takes a released operation of the workplace's capacity group and sets it up with a worker. */
  async #startNext(workplace: SimWorkplace, now: number): Promise<StepKind> {
    const free = this.#staff.filter(
      (member) => member.workplaceIds.includes(workplace.id) && !this.#busyStaff.has(member.id),
    );
    const candidate = free.length > 0 ? await this.#nextOperationFor(workplace) : undefined;
    if (!candidate) {
      // Nothing to do yet: the workplace waits for material and looks again in a few minutes.
      workplace.dueAt = now + this.#between(PACE.changeover);
      if (workplace.state !== STATE.waitingForMaterial) {
        await this.#setState(workplace, STATE.waitingForMaterial);
        return 'operatingState';
      }
      return 'idle';
    }
    const worker = this.#random.pick(free);
    const operation = operationOf(candidate, worker.id);
    this.#claimed.add(operation.id);
    this.#busyStaff.add(worker.id);
    workplace.operation = operation;
    if (!(await this.#changePhase(workplace, operation, 'SETUP', now))) return 'idle';
    await this.#activity(operation, workplace, 'STARTED');
    await this.#setState(workplace, STATE.setup);
    workplace.dueAt = now + operation.targetSetupTime * this.#between(PACE.setup);
    return 'operationPhase';
  }

  /**
   * A released operation of the workplace's capacity group that may start: every operation before
   * it in its order has started producing (parts move on in batches, as in a plant). First the
   * next steps of the orders in progress, then the released operations of the plant.
   */
  async #nextOperationFor(workplace: SimWorkplace): Promise<Resource | undefined> {
    const fits = (operation: Resource) =>
      operation.properties.operationPhaseId === 'RELEASED' &&
      operation.properties.workplaceGroupId === workplace.capacityGroupId &&
      !this.#claimed.has(operation.properties.id);
    for (const orderHref of [...this.#ordersInProgress].reverse().slice(0, 10)) {
      const order = (await this.#get(orderHref)) as Resource;
      const siblings = await collect(this.#bridge, linkOf(order._links, 'operations'), 'operations');
      const next = siblings.find((operation) => fits(operation) && predecessorsStarted(operation, siblings));
      if (next) return next;
    }
    const page = await this.#get(linkOf(this.#links, 'operations'), {
      operationPhaseId: 'RELEASED',
      limit: 100,
    });
    // The first steps of their orders first: they can start at once.
    const released = (page._embedded.operations as Resource[])
      .filter(fits)
      .sort((a, b) => a.properties.sequence - b.properties.sequence);
    for (const operation of released.slice(0, 5)) {
      const order = (await this.#get(linkOf(operation._links, 'productionOrder'))) as Resource;
      const siblings = await collect(this.#bridge, linkOf(order._links, 'operations'), 'operations');
      if (predecessorsStarted(operation, siblings)) return operation;
    }
    return undefined;
  }

  /**
   * Follows the operation's action link to `phase`. Someone else may have moved it meanwhile (the
   * link is missing, 409, or 400 INVALID_TRANSITION): that is expected, not an error. The
   * operation is read again and carried on from the phase it is in; false when it is not `phase`.
   */
  async #changePhase(
    workplace: SimWorkplace,
    operation: SimOperation,
    phase: string,
    now: number,
  ): Promise<boolean> {
    const action = operation.links[`changeOperationPhaseTo${phase}`]?.href;
    let current: Resource | undefined;
    if (action) {
      const body =
        phase === 'SETUP' ? { workplaceId: workplace.id, staffMemberId: operation.staffMemberId } : {};
      const answer = await this.#bridge.follow<Resource>(action, { method: 'POST', body });
      const refused =
        answer.response.status === 409 ||
        (answer.response.status === 400 &&
          (answer.error as { code?: string } | undefined)?.code === 'INVALID_TRANSITION');
      if (!refused) current = dataOf(answer);
    }
    current ??= (await this.#get(operation.href)) as Resource;
    Object.assign(operation, { ...operationOf(current, operation.staffMemberId), done: operation.done });
    if (operation.phase === phase) return true;
    // Moved by someone else: carry on from its phase at the next due time, or let it go.
    if (['SETUP', 'TRAINING', 'PROCESSING', 'INTERRUPTED'].includes(operation.phase)) workplace.dueAt = now;
    else this.#release(workplace, operation, now);
    return false;
  }

  async #activity(
    operation: SimOperation,
    workplace: SimWorkplace,
    activity: 'STARTED' | 'INTERRUPTED' | 'FINISHED',
  ): Promise<void> {
    const member = this.#staff.find((staff) => staff.id === operation.staffMemberId);
    if (!member) return;
    // A terminal signs workers on and off through the command API, as at a real plant; a
    // refused command (already signed on or off) is stored with its result and changes nothing.
    const commands = this.#links.commands?.href;
    if (commands && activity !== 'INTERRUPTED') {
      await this.#post(`${commands}?async=false`, {
        type: 'STAFF_MEMBER_OPERATION_STATE',
        source: 'TERMINAL',
        staffMemberId: member.id,
        operationId: operation.id,
        workplaceId: workplace.id,
        staffMemberStateId: activity === 'STARTED' ? 'SIGNED_ON' : 'SIGNED_OFF',
      });
      return;
    }
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

  /** Books units made on the operation in processing. */
  async #bookOutput(
    workplace: SimWorkplace,
    operation: SimOperation,
    quantity: number,
    quantityType: 'YIELD' | 'SCRAP',
  ): Promise<void> {
    // A machine counts what it makes, with the quality it was judged (POST /machines/{id}/...):
    // booked on the operation in processing there, as a real machine's counts are.
    const machines = this.#links.machines?.href;
    const qualityDetailId = this.#qualityDetails[quantityType];
    if (machines && qualityDetailId && !workplace.manual) {
      await this.#post(`${machines}/${workplace.id}/quantitiesWithQualityDetails`, {
        quantity,
        qualityDetailId,
      });
      return;
    }
    await this.#post(`${operation.href}/recordedOutputQuantities`, {
      quantity,
      quantityType,
      workplaceId: workplace.id,
      ...(operation.staffMemberId ? { staffMemberId: operation.staffMemberId } : {}),
    });
  }

  /** Good units booked on the operation so far (0 where the API has no quantity summary). */
  async #yieldOf(operation: SimOperation): Promise<number> {
    if (!this.#outputQuantities) return 0;
    const answer = await this.#bridge.follow<Resource>(`${operation.href}/quantitySummary`);
    if (!answer.response.ok) return 0;
    return dataOf(answer).properties.elements?.[0]?.quantities?.yield ?? 0;
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

  /**
   * Raises a ticket at a workplace (an andon call), or closes one raised earlier: the older ones
   * get done while new ones come in, so a few are open at any time.
   */
  async #ticket(): Promise<StepKind> {
    const oldest = this.#openTickets[0];
    if (oldest !== undefined && (this.#openTickets.length >= 3 || this.#random.chance(0.5))) {
      this.#openTickets.shift();
      const ticket: Resource = await this.#get(oldest);
      const done = ticket._links.setTicketStateDone?.href;
      if (done) await this.#post(done);
      return 'ticket';
    }
    const workplace = this.#random.pick(this.#workplaces);
    const problem = this.#random.pick(TICKET_PROBLEMS);
    const answer = await this.#bridge.follow<Resource>(linkOf(this.#links, 'tickets'), {
      method: 'POST',
      body: {
        title: `${problem.title} at ${workplace.number}`,
        priority: problem.priority,
        editor: 'Simulator',
        workplaceId: workplace.id,
      },
    });
    this.#openTickets.push(linkOf(dataOf(answer)._links, 'self'));
    return 'ticket';
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

const STARTED = ['PROCESSING', 'INTERRUPTED', 'COMPLETED', 'CLOSED'];

function predecessorsStarted(operation: Resource, siblings: Resource[]): boolean {
  return siblings.every(
    (sibling) =>
      sibling.properties.sequence >= operation.properties.sequence ||
      STARTED.includes(sibling.properties.operationPhaseId),
  );
}

function linkOf(links: Links, rel: string): string {
  const found = links[rel]?.href;
  if (!found) throw new Error(`no ${rel} link`);
  return found;
}

function operationOf(resource: Resource, staffMemberId: string | undefined): SimOperation {
  const p = resource.properties;
  return {
    href: linkOf(resource._links, 'self'),
    id: p.id,
    phase: p.operationPhaseId,
    links: resource._links,
    staffMemberId,
    targetTimePerUnit: p.targetTimePerUnit > 0 ? p.targetTimePerUnit : PACE.timePerUnit,
    targetSetupTime: typeof p.targetSetupTime === 'number' ? p.targetSetupTime : PACE.setupTime,
    targetQuantity: p.targetQuantity > 0 ? p.targetQuantity : PACE.quantity,
    done: 0,
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

type QualityDetailIds = Partial<Record<'YIELD' | 'SCRAP', string>>;

/** The first quality detail of each quality type, from the master data; none on older APIs. */
async function qualityDetailIds(bridge: BridgeClient, links: EntryLinks): Promise<QualityDetailIds> {
  const masterData = links.masterData?.href;
  if (!masterData) return {};
  const entry = dataOf(await bridge.follow<{ _links: Links }>(masterData));
  const href = entry._links.qualityDetails?.href;
  if (!href) return {};
  const ids: QualityDetailIds = {};
  for (const detail of await collect(bridge, href, 'qualityDetails')) {
    const type: unknown = detail.properties.qualityTypeId;
    if ((type === 'YIELD' || type === 'SCRAP') && ids[type] === undefined) ids[type] = detail.properties.id;
  }
  return ids;
}
