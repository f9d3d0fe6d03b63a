// Tools and tool assembly orders as the services and repositories exchange them. A tool is
// created together with its assembly order; its state is derived from that order's state.

import type { Stored } from './stored.ts';
import {
  TOOL_ASSEMBLY_ORDER_STATE_IDS,
  TOOL_ASSEMBLY_ORDER_TRANSITIONS,
  type ToolAssemblyOrderStateId,
} from './toolAssemblyOrderStates.ts';
import { changedProperties } from './workplaces.ts';

export const TOOL_STATE_IDS = ['IN_ASSEMBLY', 'AVAILABLE', 'UNAVAILABLE'] as const;
export type ToolStateId = (typeof TOOL_STATE_IDS)[number];

/** AVAILABLE and UNAVAILABLE orders make the tool so; any earlier state means it is being assembled. */
export const toolStateOf = (orderState: ToolAssemblyOrderStateId): ToolStateId =>
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

export interface ToolInput {
  number: string | null;
  description: string | null;
  storageLocation: string | null;
  /** Current site of operation. */
  workplaceId: string | null;
  lifespan: Lifespan;
}

export interface Tool extends ToolInput, Stored {}

/** A tool as read, with what its assembly order tells about it. */
export interface ToolView extends Tool {
  toolAssemblyOrderId: string;
  toolStateId: ToolStateId;
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

/**
 * Changed characteristic properties of a tool (TOOL_UPDATED, docs/events.md, "Catalogue"): number, description and
 * the lifespan's maximum and warning limit; not its condition, location nor remaining life.
 */
export function changedToolCharacteristics(before: ToolInput, after: ToolInput): string[] {
  return [
    ...changedProperties(before, after, ['number', 'description']),
    ...changedProperties(before.lifespan, after.lifespan, ['maximum', 'warningLimit']).map(
      (key) => `lifespan.${key}`,
    ),
  ];
}

/** The lifespan part that contradicts the maximum, if any: remaining and warning limit fit within it. */
export function lifespanProblem(lifespan: Lifespan): keyof Lifespan | undefined {
  const { remaining, maximum, warningLimit } = lifespan;
  if (maximum === null) return undefined;
  if (remaining !== null && remaining > maximum) return 'remaining';
  if (warningLimit !== null && warningLimit > maximum) return 'warningLimit';
  return undefined;
}
