// Tools and tool assembly orders as the services and repositories exchange them. A tool is
// created directly or together with its assembly order; while that order is in progress the
// order gives the tool its state, afterwards the tool state command does.

import { isOneOf } from './masterData.ts';
import type { Stored } from './stored.ts';
import {
  TOOL_ASSEMBLY_ORDER_STATE_IDS,
  TOOL_ASSEMBLY_ORDER_TRANSITIONS,
  type ToolAssemblyOrderStateId,
} from './toolAssemblyOrderStates.ts';
import { changedProperties } from './workplaces.ts';

export const TOOL_STATE_IDS = ['IN_ASSEMBLY', 'AVAILABLE', 'UNAVAILABLE'] as const;
export type ToolStateId = (typeof TOOL_STATE_IDS)[number];

/** The states the tool state command sets; IN_ASSEMBLY comes only from an unfinished order. */
const SETTABLE_TOOL_STATE_IDS = ['AVAILABLE', 'UNAVAILABLE'] as const;

export const isSettableToolState = isOneOf(SETTABLE_TOOL_STATE_IDS);

/** AVAILABLE and UNAVAILABLE orders make the tool so; any earlier state means it is being assembled. */
const toolStateOf = (orderState: ToolAssemblyOrderStateId): ToolStateId =>
  orderState === 'AVAILABLE' || orderState === 'UNAVAILABLE' ? orderState : 'IN_ASSEMBLY';

/** The order states that give a tool this state (for filtering tools by toolStateId). */
export const orderStatesOf = (toolState: ToolStateId): ToolAssemblyOrderStateId[] =>
  TOOL_ASSEMBLY_ORDER_STATE_IDS.filter((orderState) => toolStateOf(orderState) === toolState);

/** The next state of the main lifecycle (REQUESTED -> ... -> AVAILABLE), none once final. */
export const nextToolAssemblyOrderState = (
  state: ToolAssemblyOrderStateId,
): ToolAssemblyOrderStateId | undefined =>
  TOOL_ASSEMBLY_ORDER_TRANSITIONS[state].find((next) => next !== 'UNAVAILABLE');

/** Service life in milliseconds; each part may be unknown. */
export interface Lifespan {
  remaining: number | null;
  maximum: number | null;
  warningLimit: number | null;
}

/** The SDK's service life counters in the plant's own unit: used life, warning limit, maximum. */
export interface LifeTime {
  current: number | null;
  warningLimit: number | null;
  maximum: number | null;
}

/** A tool group or class: a name and the plant's identifier, each optional. */
export interface IdentifierValue {
  name: string | null;
  identifier: string | null;
}

export const NO_LIFE_TIME: LifeTime = { current: null, warningLimit: null, maximum: null };

export interface ToolInput {
  /** The tool number, the SDK's identifier1. */
  number: string | null;
  description: string | null;
  storageLocation: string | null;
  /** Current site of operation, the workplace of the location. */
  workplaceId: string | null;
  lifespan: Lifespan;
  name: string | null;
  identifier2: string | null;
  identifier3: string | null;
  documentUrl: string | null;
  group: IdentifierValue | null;
  toolClass: IdentifierValue | null;
  lifeTime: LifeTime;
}

/** Where in its workplace's magazine a tool is; the workplace is the tool's `workplaceId`. */
export interface ToolPlace {
  magazineNumber: number | null;
  magazinePlace: number | null;
  /** As written (the SDK's GeoCoordinates); null when not given. */
  geoCoordinates: Record<string, unknown> | null;
}

export const NO_PLACE: ToolPlace = { magazineNumber: null, magazinePlace: null, geoCoordinates: null };

export interface Tool extends ToolInput, Stored {
  place: ToolPlace;
  /** Set by the tool state command; null until then. */
  stateId: ToolStateId | null;
}

/** A tool as read, with what its assembly order tells about it. */
export interface ToolView extends Tool {
  /** Null for a tool created directly. */
  toolAssemblyOrderId: string | null;
  /** Null for a tool created directly whose state was never set. */
  toolStateId: ToolStateId | null;
}

/** The state a tool shows: IN_ASSEMBLY while its order is unfinished, else its own, else its order's. */
export function shownToolState(
  stateId: ToolStateId | null,
  orderState: ToolAssemblyOrderStateId | null,
): ToolStateId | null {
  const fromOrder = orderState === null ? null : toolStateOf(orderState);
  return fromOrder === 'IN_ASSEMBLY' ? fromOrder : (stateId ?? fromOrder);
}

/** A cutting edge of a tool. */
export interface ToolEdgeInput {
  identifier: string;
  lifeTime: LifeTime;
}

export interface ToolEdge extends ToolEdgeInput, Stored {
  toolId: string;
}

/** A characteristic of a tool or edge (ISO 13399 identifier), as the SDK writes it. */
export interface Characteristic {
  name: string;
  identifier: string;
  value: string;
  unit: string | null;
}

export interface ToolAssemblyOrder {
  id: string;
  /** Null once the tool has been deleted. */
  toolId: string | null;
  toolDescription: string;
  targetWorkplaceId: string | null;
  operationId: string | null;
  toolAssemblyOrderStateId: ToolAssemblyOrderStateId;
  createdAt: Date;
  updatedAt: Date;
}

const sameValue = (a: IdentifierValue | null, b: IdentifierValue | null) =>
  a?.name === b?.name && a?.identifier === b?.identifier;

/**
 * Changed characteristic properties of a tool (TOOL_UPDATED, docs/events.md, "Catalogue"): its
 * names, identifiers, document, group and class, the lifespan's and lifeTime's maximum and warning
 * limit; not its condition, location nor remaining or used life.
 */
export function changedToolCharacteristics(before: ToolInput, after: ToolInput): string[] {
  return [
    ...changedProperties(before, after, [
      'number',
      'description',
      'name',
      'identifier2',
      'identifier3',
      'documentUrl',
    ]),
    ...(sameValue(before.group, after.group) ? [] : ['group']),
    ...(sameValue(before.toolClass, after.toolClass) ? [] : ['class']),
    ...changedProperties(before.lifespan, after.lifespan, ['maximum', 'warningLimit']).map(
      (key) => `lifespan.${key}`,
    ),
    ...changedProperties(before.lifeTime, after.lifeTime, ['maximum', 'warningLimit']).map(
      (key) => `lifeTime.${key}`,
    ),
  ];
}

/** Changed characteristic properties of an edge: its identifier and its lifeTime's limits, not its used life. */
export function changedEdgeCharacteristics(before: ToolEdgeInput, after: ToolEdgeInput): string[] {
  return [
    ...changedProperties(before, after, ['identifier']),
    ...changedProperties(before.lifeTime, after.lifeTime, ['maximum', 'warningLimit']).map(
      (key) => `lifeTime.${key}`,
    ),
  ];
}

/** Whether two lists of characteristics say the same, in the same order. */
export const sameCharacteristics = (a: readonly Characteristic[], b: readonly Characteristic[]) =>
  a.length === b.length &&
  a.every(
    (one, index) =>
      one.name === b[index]?.name &&
      one.identifier === b[index]?.identifier &&
      one.value === b[index]?.value &&
      one.unit === b[index]?.unit,
  );

/** The lifespan part that contradicts the maximum, if any: remaining and warning limit fit within it. */
export function lifespanProblem(lifespan: Lifespan): keyof Lifespan | undefined {
  const { remaining, maximum, warningLimit } = lifespan;
  if (maximum === null) return undefined;
  if (remaining !== null && remaining > maximum) return 'remaining';
  if (warningLimit !== null && warningLimit > maximum) return 'warningLimit';
  return undefined;
}
