// Connectors (docs/resources/connectors.md): their configuration through the API, and the lease
// and status calls of the connector runtime (src/connectors), each in its own short transaction.
import type { Config } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import * as repository from '../db/repositories/connectorRepository.ts';
import { findDevice } from '../db/repositories/deviceRepository.ts';
import {
  type Connector,
  type ConnectorInput,
  type ConnectorState,
  checkConnectorUrl,
  checkSources,
  checkStateCodes,
  initialStatus,
  LEASE_TTL_MS,
  type Mapping,
  withErrors,
} from '../domain/connectors.ts';
import { AppError } from '../domain/errors.ts';
import { catalogueEvent } from '../domain/events.ts';
import { isUuid } from '../domain/ids.ts';
import { callbackPolicy } from '../net/addressPolicy.ts';
import { recordEvents } from './eventService.ts';
import { newItem } from './lifecycle.ts';
import { checkReference } from './referenceService.ts';
import { changeOperatingState } from './workplaceService.ts';
import { found, locking, writeOnFound } from './writes.ts';

const lockConnector = locking('connector', repository.findConnector);

/** The settings of the destination rule connector URLs share with callbacks (the SSRF address policy). */
export type DestinationSettings = Pick<
  Config,
  'callbackAllowedNetworks' | 'callbackDeniedNetworks' | 'callbackDenyLoopback'
>;

export async function getConnector(db: Queryable, id: string): Promise<Connector> {
  return found(repository.findConnector(db, id), 'connector', id);
}

/** Every device, tag, workplace and state a mapping names must exist: 400 naming the first that does not. */
async function checkTargets(tx: Queryable, mappings: readonly Mapping[]): Promise<void> {
  checkStateCodes(mappings);
  for (const [index, { target }] of mappings.entries()) {
    const field = `mappings[${index}].target`;
    if (target.kind === 'DEVICE_SAMPLE') {
      const device = isUuid(target.deviceId) ? await findDevice(tx, target.deviceId) : undefined;
      if (!device)
        throw new AppError('INVALID_REFERENCE', {
          field: `${field}.deviceId`,
          id: target.deviceId,
          expected: 'device',
        });
      if (!device.recordedPhysicalQuantities.some((quantity) => quantity.tag === target.tag))
        throw new AppError('VALIDATION_FAILED', {
          rule: 'value',
          field: `${field}.tag`,
          detail: `the device does not record the tag '${target.tag}'`,
        });
    } else {
      await checkReference(tx, `${field}.workplaceId`, target.workplaceId, 'workplaces');
    }
  }
}

function checkInput(input: ConnectorInput, settings: DestinationSettings): void {
  const url = checkConnectorUrl(input.type, input.url);
  // A denied address literal is refused here (400 naming url), host names at each connection.
  const refused = callbackPolicy(settings).literalRefusal(url.hostname);
  if (refused !== null)
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'url',
      detail: refused.replace('callbacks', 'connectors'),
    });
  checkSources(input.type, input.mappings);
  if (input.type !== 'OPC_UA' && input.securityMode !== 'None')
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'securityMode',
      detail: 'only OPC UA connectors take a security mode (MQTT uses mqtts: URLs)',
    });
}

export async function createConnector(
  db: Database,
  input: ConnectorInput,
  settings: DestinationSettings,
): Promise<Connector> {
  checkInput(input, settings);
  const now = new Date();
  const connector: Connector = newItem(
    { ...input, password: input.password ?? null, revision: 1, status: initialStatus(input.enabled, now) },
    now,
  );
  await db.transaction(async (tx) => {
    await checkTargets(tx, connector.mappings);
    await repository.insertConnector(tx, connector);
  });
  return connector;
}

/**
 * A new configuration. Enabling or disabling changes the status state (with its event); any other
 * change makes the running instance reconnect with the new configuration (revision).
 */
export async function replaceConnector(
  db: Database,
  id: string,
  input: ConnectorInput,
  settings: DestinationSettings,
): Promise<Connector> {
  checkInput(input, settings);
  return writeOnFound(db, lockConnector(id), async (tx, before) => {
    await checkTargets(tx, input.mappings);
    const now = new Date();
    const after: Connector = {
      ...before,
      ...input,
      password: input.password === undefined ? before.password : input.password,
      revision: before.revision + 1,
      updatedAt: now,
    };
    if (before.enabled !== after.enabled) {
      after.status = {
        ...before.status,
        state: after.enabled ? 'CONNECTING' : 'DISABLED',
        since: now,
        lastError: null,
      };
    }
    await repository.updateConnector(tx, after);
    if (after.status.state !== before.status.state)
      await recordEvents(tx, [stateEvent(after, before.status.state)], now);
    return after;
  });
}

export async function deleteConnector(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockConnector(id), async (tx, connector) => {
    await repository.deleteConnector(tx, connector.id);
  });
}

function stateEvent(
  connector: Pick<Connector, 'id' | 'name' | 'type'> & {
    status: { state: ConnectorState; lastError: string | null };
  },
  previous: ConnectorState,
) {
  return catalogueEvent('CONNECTOR_STATE_CHANGED', connector.id, {
    connectorId: connector.id,
    name: connector.name,
    type: connector.type,
    currentState: connector.status.state,
    previousState: previous,
    lastError: connector.status.lastError,
  });
}

// --- The runtime's calls (src/connectors/manager.ts) -------------------------------------------

/** Takes or renews this instance's leases at `now` (the runtime's clock); the connectors it now runs. */
export function claimConnectors(db: Database, owner: string, now: Date): Promise<Connector[]> {
  return repository.claimConnectorLeases(db, owner, now, new Date(now.getTime() + LEASE_TTL_MS));
}

export function releaseConnector(db: Database, id: string, owner: string): Promise<void> {
  return repository.releaseConnectorLease(db, id, owner);
}

/**
 * The owner reports a state: stored with CONNECTOR_STATE_CHANGED when the state differs; its
 * error joins the status history. Ignored when the connector is gone, disabled, or leased to
 * another instance meanwhile.
 */
export async function reportConnectorState(
  db: Database,
  id: string,
  owner: string,
  state: ConnectorState,
  lastError: string | null,
  at: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await repository.lockConnectorState(tx, id);
    if (!current || current.owner !== owner || current.state === 'DISABLED') return;
    const history =
      lastError === null
        ? current.recentErrors
        : withErrors(current.recentErrors, [{ at, message: lastError, repeated: 1 }]);
    if (current.state === state) {
      if (lastError !== null) await repository.setConnectorLastError(tx, id, lastError, history);
      return;
    }
    await repository.setConnectorState(tx, id, state, at, lastError, history);
    await recordEvents(
      tx,
      [
        stateEvent(
          { id, name: current.name, type: current.type, status: { state, lastError } },
          current.state,
        ),
      ],
      at,
    );
  });
}

/** The owner adds what it counted since its last report, and its problems to the history. */
export async function reportConnectorCounts(
  db: Database,
  id: string,
  owner: string,
  delta: repository.CounterDelta,
): Promise<void> {
  if (delta.errors.length === 0) return repository.addConnectorCounts(db, id, owner, delta, null);
  await db.transaction(async (tx) => {
    const current = await repository.lockConnectorState(tx, id);
    if (!current || current.owner !== owner) return;
    await repository.addConnectorCounts(tx, id, owner, delta, withErrors(current.recentErrors, delta.errors));
  });
}

/**
 * The source of some of a connector's mappings died (Sparkplug NDEATH or DDEATH, a lost OPC UA
 * session): CONNECTOR_VALUES_STALE says which, and each workplace whose operating state those
 * mappings report takes the "no connection" state (BRIDGE_CONNECTOR_NO_CONNECTION_STATE; null
 * keeps its state). Ignored when the connector is leased to another instance meanwhile.
 */
export async function reportStaleValues(
  db: Database,
  connector: Pick<Connector, 'id' | 'name' | 'type' | 'mappings'>,
  owner: string,
  indexes: readonly number[],
  reason: string,
  noConnectionState: string | null,
  at: Date,
): Promise<void> {
  const workplaceIds = [
    ...new Set(
      indexes.flatMap((index) => {
        const target = connector.mappings[index]?.target;
        return target?.kind === 'OPERATING_STATE' ? [target.workplaceId] : [];
      }),
    ),
  ];
  const reported = await db.transaction(async (tx) => {
    const current = await repository.lockConnectorState(tx, connector.id);
    if (!current || current.owner !== owner) return false;
    await recordEvents(
      tx,
      [
        catalogueEvent('CONNECTOR_VALUES_STALE', connector.id, {
          connectorId: connector.id,
          name: connector.name,
          type: connector.type,
          reason,
          mappings: [...indexes],
          workplaceIds,
          operatingState: noConnectionState,
        }),
      ],
      at,
    );
    return true;
  });
  if (!reported || noConnectionState === null) return;
  // Through the operating-state command: its history record and event only on a real change.
  for (const workplaceId of workplaceIds) await changeOperatingState(db, workplaceId, noConnectionState);
}
