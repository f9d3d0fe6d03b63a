import type { Database, Queryable } from '../db/database.ts';
import * as tools from '../db/repositories/toolRepository.ts';
import { AppError } from '../domain/errors.ts';
import { lifecycleEvents } from '../domain/events.ts';
import {
  changedToolCharacteristics,
  type Lifespan,
  lifespanProblem,
  type Tool,
  type ToolInput,
  type ToolView,
} from '../domain/tools.ts';
import { rethrowDuplicate, rethrowInUse } from './constraintErrors.ts';
import { recordEvents } from './eventService.ts';
import { checkReference } from './referenceService.ts';
import { found, locking, writeOnFound } from './writes.ts';

const lockTool = locking('tool', tools.findTool);

/** The event data of TOOL_CREATED/_UPDATED/_DELETED: the tool's characteristic properties. */
export function toolEventData(tool: Tool, changed?: string[]) {
  const data: Record<string, unknown> = {
    toolId: tool.id,
    number: tool.number,
    description: tool.description,
    lifespan: { maximum: tool.lifespan.maximum, warningLimit: tool.lifespan.warningLimit },
  };
  if (changed) data.changedProperties = changed;
  return data;
}

/** Remaining life and warning limit must fit within the maximum: 400 naming the part otherwise. */
export function checkLifespan(lifespan: Lifespan): void {
  const part = lifespanProblem(lifespan);
  if (part) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: `lifespan.${part}`,
      detail: 'must not exceed lifespan.maximum',
    });
  }
}

export async function getTool(db: Queryable, id: string): Promise<ToolView> {
  return found(tools.findTool(db, id), 'tool', id);
}

/**
 * PUT: every writable property is replaced. Location, site and remaining life are saved quietly;
 * only a change of a characteristic property emits TOOL_UPDATED (docs/events.md, "Catalogue").
 */
export async function replaceTool(db: Database, id: string, input: ToolInput): Promise<ToolView> {
  checkLifespan(input.lifespan);
  return writeOnFound(db, lockTool(id), async (tx, before) => {
    const after: ToolView = { ...before, ...input, lifespan: { ...input.lifespan } };
    const unchanged =
      before.storageLocation === after.storageLocation &&
      before.workplaceId === after.workplaceId &&
      before.lifespan.remaining === after.lifespan.remaining;
    const changed = changedToolCharacteristics(before, after);
    if (unchanged && changed.length === 0) return before;
    if (after.workplaceId !== before.workplaceId) {
      await checkReference(tx, 'workplaceId', after.workplaceId, 'workplaces');
    }
    after.updatedAt = new Date();
    await tools.updateTool(tx, after).catch(rethrowDuplicate('number', String(after.number)));
    if (changed.length > 0) {
      await recordEvents(
        tx,
        lifecycleEvents('TOOL', 'UPDATED', id, toolEventData(after, changed)),
        after.updatedAt,
      );
    }
    return after;
  });
}

/**
 * A tool whose assembly order is still in progress cannot be deleted (400 RESOURCE_IN_USE): the
 * order must first end, e.g. as UNAVAILABLE. A finished order stays as history without its tool.
 */
export async function deleteTool(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockTool(id), async (tx, tool) => {
    if (tool.toolStateId === 'IN_ASSEMBLY') {
      throw new AppError('RESOURCE_IN_USE', {
        resource: 'tool',
        id,
        by: `the unfinished toolAssemblyOrder '${tool.toolAssemblyOrderId}'`,
      });
    }
    await tools.deleteTool(tx, id).catch(rethrowInUse('tool', id));
    await recordEvents(tx, lifecycleEvents('TOOL', 'DELETED', id, toolEventData(tool)), new Date());
  });
}
