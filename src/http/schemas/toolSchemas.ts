// Tools and tool assembly orders as the API shows and takes them (docs/resources/tools.md).
import { Type } from 'typebox';
import { TOOL_ASSEMBLY_ORDER_STATE_IDS } from '../../domain/toolAssemblyOrderStates.ts';
import {
  type Characteristic,
  type IdentifierValue,
  type Lifespan,
  type LifeTime,
  TOOL_STATE_IDS,
  type ToolInput,
} from '../../domain/tools.ts';
import { LinkSchema, Nullable, optional, optionalText, Resource } from './common.ts';

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

/** The SDK's lifeTime in milliseconds, each part optional in a body (a missing one is null). */
const LifeTimeBody = Type.Optional(
  Nullable(
    Type.Object(
      {
        current: Type.Optional(Milliseconds),
        warningLimit: Type.Optional(Milliseconds),
        maximum: Type.Optional(Milliseconds),
      },
      {
        additionalProperties: false,
        description: 'Service life in milliseconds: used, warning limit, maximum',
      },
    ),
  ),
);

const toLifeTime = (body: Partial<Record<keyof LifeTime, number | null>> | null | undefined): LifeTime => ({
  current: body?.current ?? null,
  warningLimit: body?.warningLimit ?? null,
  maximum: body?.maximum ?? null,
});

const LifeTimeProperty = Type.Object({
  current: Milliseconds,
  warningLimit: Milliseconds,
  maximum: Milliseconds,
});

const IdentifierValueBody = Type.Optional(
  Nullable(
    Type.Object(
      { name: optionalText(200), identifier: optionalText(200) },
      { additionalProperties: false, description: 'A name and the plant’s identifier' },
    ),
  ),
);

const toIdentifierValue = (
  body: { name?: string | null; identifier?: string | null } | null | undefined,
): IdentifierValue | null =>
  body == null || (body.name == null && body.identifier == null)
    ? null
    : { name: body.name ?? null, identifier: body.identifier ?? null };

const IdentifierValueProperty = Nullable(
  Type.Object({ name: Nullable(Type.String()), identifier: Nullable(Type.String()) }),
);

export const ToolSchema = Resource(
  Type.Object({
    id: Uuid,
    number: Nullable(Type.String()),
    description: Nullable(Type.String()),
    storageLocation: Nullable(Type.String()),
    workplaceId: Nullable(Uuid),
    lifespan: Type.Object({ remaining: Milliseconds, maximum: Milliseconds, warningLimit: Milliseconds }),
    toolStateId: Nullable(Type.Enum([...TOOL_STATE_IDS])),
    name: Nullable(Type.String()),
    identifier1: Nullable(Type.String({ description: 'The tool number (`number`)' })),
    identifier2: Nullable(Type.String()),
    identifier3: Nullable(Type.String()),
    documentUrl: Nullable(Type.String()),
    group: IdentifierValueProperty,
    class: IdentifierValueProperty,
    lifeTime: LifeTimeProperty,
  }),
  'Tool (created directly or through a tool assembly order, whose state it shows while unfinished)',
);

/** The v3 properties a tool's create and replace bodies share. */
const V3ToolFields = {
  name: optionalText(200),
  description: optionalText(2000),
  identifier2: optionalText(100),
  identifier3: optionalText(100),
  documentUrl: optionalText(2000),
  group: IdentifierValueBody,
  class: IdentifierValueBody,
  lifeTime: LifeTimeBody,
  storageLocation: optionalText(200),
  lifespan: LifespanBody,
};

export const ReplaceToolBody = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })),
    number: optional(Type.String({ minLength: 1, maxLength: 100 })),
    workplaceId: optional(Uuid),
    ...V3ToolFields,
  },
  { additionalProperties: false },
);

const GeoCoordinatesBody = Type.Optional(
  Nullable(
    Type.Object(
      { latitude: optional(Type.Number()), longitude: optional(Type.Number()) },
      { additionalProperties: false },
    ),
  ),
);

const MagazineNumber = optional(Type.Integer({ minimum: 0, maximum: 32767 }));

const PlaceFields = {
  magazineNumber: MagazineNumber,
  magazinePlace: MagazineNumber,
  geoCoordinates: GeoCoordinatesBody,
};

const NewLocationBody = Type.Object({ workplaceId: Uuid, ...PlaceFields }, { additionalProperties: false });

/** PUT location: without workplaceId the tool stays in its workplace (a GET-modify-PUT sends none). */
export const ToolLocationBody = Type.Object(
  {
    workplaceId: Type.Optional(
      Type.String({ format: 'uuid', description: 'Default: the workplace the tool is in now' }),
    ),
    ...PlaceFields,
  },
  { additionalProperties: false },
);

type LocationBody = {
  magazineNumber?: number | null;
  magazinePlace?: number | null;
  geoCoordinates?: Record<string, unknown> | null;
};

export const toLocation = <W extends string | null>(body: LocationBody, workplaceId: W) => ({
  workplaceId,
  magazineNumber: body.magazineNumber ?? null,
  magazinePlace: body.magazinePlace ?? null,
  geoCoordinates: body.geoCoordinates ?? null,
});

const CharacteristicBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    identifier: Type.String({ minLength: 1, maxLength: 200 }),
    value: Type.String({ maxLength: 2000 }),
    unit: optionalText(50),
  },
  { additionalProperties: false },
);

export const CharacteristicsBody = Type.Array(CharacteristicBody, { maxItems: 1000 });

export const toCharacteristics = (
  body: readonly { name: string; identifier: string; value: string; unit?: string | null }[] | undefined,
): Characteristic[] =>
  (body ?? []).map(({ name, identifier, value, unit }) => ({ name, identifier, value, unit: unit ?? null }));

export const CreateToolBody = Type.Object(
  {
    id: optional(Type.String({ description: 'Absent or null: the service chooses it' })),
    identifier1: Type.String({ minLength: 1, maxLength: 100, description: 'The tool number' }),
    ...V3ToolFields,
    location: optional(NewLocationBody),
    characteristics: Type.Optional(CharacteristicsBody),
  },
  { additionalProperties: false },
);

type ToolFieldsBody = {
  name?: string | null;
  description?: string | null;
  identifier2?: string | null;
  identifier3?: string | null;
  documentUrl?: string | null;
  group?: { name?: string | null; identifier?: string | null } | null;
  class?: { name?: string | null; identifier?: string | null } | null;
  lifeTime?: Partial<Record<keyof LifeTime, number | null>> | null;
  storageLocation?: string | null;
  lifespan?: Partial<Record<keyof Lifespan, number | null>> | null;
};

/** A tool's writable properties from a create or replace body; what is missing is null. */
export const toolInput = (
  body: ToolFieldsBody,
  number: string | null | undefined,
  workplaceId: string | null | undefined,
): ToolInput => ({
  number: number ?? null,
  description: body.description ?? null,
  storageLocation: body.storageLocation ?? null,
  workplaceId: workplaceId ?? null,
  lifespan: toLifespan(body.lifespan),
  name: body.name ?? null,
  identifier2: body.identifier2 ?? null,
  identifier3: body.identifier3 ?? null,
  documentUrl: body.documentUrl ?? null,
  group: toIdentifierValue(body.group),
  toolClass: toIdentifierValue(body.class),
  lifeTime: toLifeTime(body.lifeTime),
});

export const ToolFilters = {
  workplaceId: Type.Optional(Uuid),
  toolStateId: Type.Optional(Type.Enum([...TOOL_STATE_IDS])),
  number: Type.Optional(Type.String({ maxLength: 100 })),
  identifier: Type.Optional(Type.String({ maxLength: 100, description: 'The number (identifier1)' })),
  identifier2: Type.Optional(Type.String({ maxLength: 100 })),
  identifier3: Type.Optional(Type.String({ maxLength: 100 })),
};

export const ToolEdgeSchema = Resource(
  Type.Object({ id: Uuid, identifier: Type.String(), lifeTime: LifeTimeProperty }),
  'A cutting edge of a tool',
);

export const CreateToolEdgeBody = Type.Object(
  {
    id: optional(Type.String({ description: 'Absent or null: the service chooses it' })),
    identifier: Type.String({ minLength: 1, maxLength: 200 }),
    lifeTime: LifeTimeBody,
    characteristics: Type.Optional(CharacteristicsBody),
  },
  { additionalProperties: false },
);

export const ReplaceToolEdgeBody = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })),
    identifier: Type.String({ minLength: 1, maxLength: 200 }),
    lifeTime: LifeTimeBody,
  },
  { additionalProperties: false },
);

export const toEdgeInput = (body: {
  identifier: string;
  lifeTime?: Partial<Record<keyof LifeTime, number | null>> | null;
}) => ({ identifier: body.identifier, lifeTime: toLifeTime(body.lifeTime) });

export const EdgeFilters = { identifier: Type.Optional(Type.String({ maxLength: 200 })) };

const Pagination = Type.Object({
  offset: Type.Integer(),
  total: Type.Integer(),
  count: Type.Integer(),
  limit: Type.Integer(),
  lastIdentifier: Type.Null(),
  firstIdentifier: Type.Null(),
});

/** The SDK's characteristic collection: the page's items as `properties.elements`. */
export const CharacteristicCollectionSchema = Type.Object(
  {
    properties: Type.Object({
      elements: Type.Array(
        Type.Object({
          name: Type.String(),
          identifier: Type.String(),
          value: Type.String(),
          unit: Nullable(Type.String()),
        }),
      ),
    }),
    pagination: Pagination,
    _links: Type.Record(Type.String(), LinkSchema),
  },
  { description: 'Characteristics of a tool or edge (ISO 13399 identifiers), in the order written' },
);

export const ToolLocationSchema = Resource(
  Type.Object({
    workplace: Type.Object({
      id: Uuid,
      number: Type.String(),
      description: Nullable(Type.String()),
      erpContextId: Nullable(Type.String()),
    }),
    magazineNumber: Nullable(Type.Integer()),
    magazinePlace: Nullable(Type.Integer()),
    geoCoordinates: Nullable(
      Type.Object({ latitude: Nullable(Type.Number()), longitude: Nullable(Type.Number()) }),
    ),
  }),
  'Where a tool is: a workplace and the place in its magazine',
);

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
    toolNumber: optional(Type.String({ minLength: 1, maxLength: 100 })),
    toolDescription: Type.String({ minLength: 1, maxLength: 2000 }),
    targetWorkplaceId: optional(Uuid),
    operationId: optional(Uuid),
    storageLocation: optionalText(200),
    lifespan: LifespanBody,
  },
  { additionalProperties: false },
);

export const ToolAssemblyOrderFilters = {
  toolAssemblyOrderStateId: Type.Optional(StateId),
  toolId: Type.Optional(Uuid),
};
