// Tools and tool assembly orders as the API shows and takes them (docs/resources/tools.md).
import { Type } from 'typebox';
import { TOOL_ASSEMBLY_ORDER_STATE_IDS } from '../../domain/toolAssemblyOrderStates.ts';
import { type Lifespan, TOOL_STATE_IDS } from '../../domain/tools.ts';
import { Nullable, Resource } from './common.ts';

const Uuid = Type.String({ format: 'uuid' });
const StateId = Type.Enum([...TOOL_ASSEMBLY_ORDER_STATE_IDS]);
const Milliseconds = Nullable(Type.Integer({ minimum: 0, description: 'Milliseconds' }));

/** Lifespan in a request body (creating an order, replacing a tool): each part optional, a missing one is null. */
const LifespanBody = Type.Optional(
  Nullable(
    Type.Object(
      {
        remaining: Type.Optional(Milliseconds),
        maximum: Type.Optional(Milliseconds),
        warningLimit: Type.Optional(Milliseconds),
      },
      { additionalProperties: false, description: 'Service life in milliseconds' },
    ),
  ),
);

export const toLifespan = (body: Partial<Record<keyof Lifespan, number | null>> | null | undefined) => ({
  remaining: body?.remaining ?? null,
  maximum: body?.maximum ?? null,
  warningLimit: body?.warningLimit ?? null,
});

export const ToolSchema = Resource(
  Type.Object({
    id: Uuid,
    number: Nullable(Type.String()),
    description: Nullable(Type.String()),
    storageLocation: Nullable(Type.String()),
    workplaceId: Nullable(Uuid),
    lifespan: Type.Object({ remaining: Milliseconds, maximum: Milliseconds, warningLimit: Milliseconds }),
    toolStateId: Type.Enum([...TOOL_STATE_IDS]),
  }),
  'Tool (created through a tool assembly order; its state follows the order)',
);

export const ReplaceToolBody = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })),
    number: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    storageLocation: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    workplaceId: Type.Optional(Nullable(Uuid)),
    lifespan: LifespanBody,
  },
  { additionalProperties: false },
);

export const ToolFilters = {
  workplaceId: Type.Optional(Uuid),
  toolStateId: Type.Optional(Type.Enum([...TOOL_STATE_IDS])),
  number: Type.Optional(Type.String({ maxLength: 100 })),
};

export const ToolAssemblyOrderSchema = Resource(
  Type.Object({
    id: Uuid,
    toolId: Nullable(Uuid),
    toolDescription: Type.String(),
    targetWorkplaceId: Nullable(Uuid),
    operationId: Nullable(Uuid),
    toolAssemblyOrderStateId: StateId,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
  'Tool assembly order; toolId is the tool it creates (null once that tool is deleted)',
);

export const CreateToolAssemblyOrderBody = Type.Object(
  {
    toolNumber: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    toolDescription: Type.String({ minLength: 1, maxLength: 2000 }),
    targetWorkplaceId: Type.Optional(Nullable(Uuid)),
    operationId: Type.Optional(Nullable(Uuid)),
    storageLocation: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    lifespan: LifespanBody,
  },
  { additionalProperties: false },
);

export const ToolAssemblyOrderFilters = {
  toolAssemblyOrderStateId: Type.Optional(StateId),
  toolId: Type.Optional(Uuid),
};
