// TypeBox schemas shared by the routes: they validate requests and document the API (OpenAPI).
import { type Static, type TOptional, type TString, Type } from 'typebox';
import { AppError } from '../../domain/errors.ts';
import { WORKPLACE_STATE_IDS } from '../../domain/masterData.ts';

export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });

export const ErrorBody = Type.Object(
  {
    status: Type.Integer({ description: 'HTTP status code' }),
    code: Type.String({ description: 'Stable error code, e.g. VALIDATION_FAILED' }),
    message: Type.String({ description: 'Localized explanation (Accept-Language)' }),
  },
  { $id: 'Error', description: 'Error body of every 4xx and 5xx answer' },
);

export const LinkSchema = Type.Object({
  href: Type.String(),
  method: Type.String(),
  embeddable: Type.Boolean(),
  templated: Type.Optional(Type.Boolean()),
});

const Links = Type.Record(Type.String(), LinkSchema);
/** Links where some relations are lists of links, as the SDK reads them (`_links.devices`). */
const LinksWithLists = Type.Record(Type.String(), Type.Union([LinkSchema, Type.Array(LinkSchema)]));

/** `linkLists`: some relations are lists of links (`_links.currentlyExecutedOperations`). */
export const Resource = <P extends Type.TSchema>(properties: P, description: string, linkLists = false) =>
  Type.Object(
    {
      properties,
      _links: linkLists ? LinksWithLists : Links,
      _embedded: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { description },
  );

// A page's first or last position: the real API's names and, with the same values, those of the
// query parameters that ask for it (docs/api.md, "Collections").
const Position = Type.Union([
  Type.Object({
    timestamp: Type.String({ format: 'date-time' }),
    identifier: Type.String(),
    paginationTimestamp: Type.String({ format: 'date-time' }),
    paginationIdentifier: Type.String(),
  }),
  Type.Null(),
]);

/** A page of `item`s, embedded as `name`, with the paging fields beside limit and count. */
const Collection = <R extends Type.TSchema, P extends Type.TProperties>(
  name: string,
  item: R,
  paging: P,
  properties?: Type.TSchema,
  linkLists = false,
) =>
  Type.Object({
    ...(properties ? { properties } : {}),
    pagination: Type.Object({ limit: Type.Integer(), count: Type.Integer(), ...paging }),
    _embedded: Type.Object({ [name]: Type.Array(item) }),
    _links: linkLists ? LinksWithLists : Links,
  });

/** `linkLists`: some of the page's relations are lists of links (`itemLinks` of a list route). */
export const OffsetCollection = <R extends Type.TSchema>(
  name: string,
  item: R,
  properties?: Type.TSchema,
  linkLists = false,
) =>
  Collection(
    name,
    item,
    {
      offset: Type.Integer(),
      total: Type.Integer(),
      firstIdentifier: Type.Null(),
      lastIdentifier: Type.Null(),
    },
    properties,
    linkLists,
  );

export const KeysetCollection = <R extends Type.TSchema>(name: string, item: R, properties?: Type.TSchema) =>
  Collection(
    name,
    item,
    { offset: Type.Null(), total: Type.Integer(), firstIdentifier: Position, lastIdentifier: Position },
    properties,
  );

// Paging parameters are optional (documented as such); Ajv fills in the defaults, and the
// readers below say so to the type checker.
const DEFAULT_LIMIT = 100;
const Limit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIMIT, description: 'Page size (1..100)' }),
);

export const OffsetQuery = {
  limit: Limit,
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Index of the first element' })),
};

export const KeysetQuery = {
  limit: Limit,
  paginationDirection: Type.Optional(
    Type.Enum(['NEXT', 'PREVIOUS'], {
      default: 'NEXT',
      description: 'NEXT walks to older entries, PREVIOUS to newer ones',
    }),
  ),
  paginationTimestamp: Type.Optional(Type.String({ format: 'date-time' })),
  paginationIdentifier: Type.Optional(
    Type.String({ format: 'uuid', description: 'Id of the item at the position' }),
  ),
};

/** The offset page a validated query asks for. */
export const offsetPage = (query: { limit?: number; offset?: number }) => ({
  limit: query.limit ?? DEFAULT_LIMIT,
  offset: query.offset ?? 0,
});

/** The keyset page a validated query asks for. */
export const keysetPosition = (query: {
  limit?: number;
  paginationDirection?: 'NEXT' | 'PREVIOUS' | string;
  paginationTimestamp?: string;
  paginationIdentifier?: string;
}) => ({
  limit: query.limit ?? DEFAULT_LIMIT,
  direction: query.paginationDirection === 'PREVIOUS' ? ('PREVIOUS' as const) : ('NEXT' as const),
  timestamp: query.paginationTimestamp === undefined ? undefined : new Date(query.paginationTimestamp),
  identifier: query.paginationIdentifier,
});

/** The page size and the paging parameters as a keyset query asked them, for keysetCollection. */
export const pagingAsked = (query: {
  limit?: number;
  paginationDirection?: string;
  paginationTimestamp?: string;
  paginationIdentifier?: string;
}) => ({
  limit: query.limit ?? DEFAULT_LIMIT,
  query: {
    paginationDirection: query.paginationDirection,
    paginationTimestamp: query.paginationTimestamp,
    paginationIdentifier: query.paginationIdentifier,
  },
});

/** A date-time parameter as a Date (absent stays absent). */
export const dateOf = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/** A nullable date-time field as a Date or null. */
export const nullableDate = (value: string | null | undefined) => (value == null ? null : new Date(value));

type WithDates<T, K extends keyof T> = { [P in keyof T]: P extends K ? DateOf<T[P]> : T[P] };
type DateOf<T> = T extends string ? Date : T;

/** `value` with the named date-time fields as Dates; absent and null ones stay as they are. */
export function withDates<T extends object, K extends keyof T>(value: T, ...keys: K[]): WithDates<T, K> {
  const result = { ...value } as Record<PropertyKey, unknown>;
  for (const key of keys) {
    const text = value[key];
    if (typeof text === 'string') result[key] = new Date(text);
  }
  return result as WithDates<T, K>;
}

/** An optional property as a service takes it: absent is null. */
type Given<T> = { [P in keyof T]-?: Exclude<T[P], undefined> | (undefined extends T[P] ? null : never) };

/**
 * A body as a service takes it: every property of its schema, in the schema's order, an absent
 * one as null. The order is fixed because services detect changes on the JSON text.
 */
export function absentAsNull<S extends Type.TObject>(schema: S, body: Static<S>): Given<Static<S>> {
  const values = body as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) result[key] = values[key] ?? null;
  return result as Given<Static<S>>;
}

/** The replacing body: the writable fields, and the id, which must equal the path's when sent. */
export const ReplaceBody = <P extends Type.TProperties>(writable: P) =>
  Type.Object(
    { id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })), ...writable },
    { additionalProperties: false },
  );

/** A period filter: what ends before startDate or starts after endDate is left out. */
export const PeriodFilters = {
  startDate: Type.Optional(Type.String({ format: 'date-time' })),
  endDate: Type.Optional(Type.String({ format: 'date-time' })),
};

/** The period of a body: its start and its end, the end described by `end`. */
export const PeriodBody = (end: string) => ({
  startDate: DateTime,
  endDate: Type.String({ format: 'date-time', description: end }),
});

/** A body with a PeriodBody as a service takes it: absentAsNull, and the period's dates read. */
export function inputWithPeriod<S extends Type.TObject<ReturnType<typeof PeriodBody>>>(
  schema: S,
  body: Static<S>,
): WithDates<Given<Static<S>>, 'startDate' | 'endDate'> {
  const input = absentAsNull(schema, body) as Given<Static<S>> & { startDate: string; endDate: string };
  return withDates(input, 'startDate', 'endDate');
}

/** The period a PeriodFilters query asks for. */
export const periodOf = (query: { startDate?: string | undefined; endDate?: string | undefined }) => ({
  startDate: dateOf(query.startDate),
  endDate: dateOf(query.endDate),
});

/**
 * The query of a list of every owner's periods, or of one owner's (`key`, its id), and the filter
 * it asks for (`ownerId` and the period).
 */
export const anyOwnerPeriodQuery = <K extends string>(key: K) => ({
  filters: { [key]: Type.Optional(Type.String({ format: 'uuid' })), ...PeriodFilters } as Record<
    K,
    TOptional<TString>
  > &
    typeof PeriodFilters,
  filter: (query: Partial<Record<K, string>> & { startDate?: string; endDate?: string }) => ({
    ownerId: query[key],
    ...periodOf(query),
  }),
});

// One comma list may name every embed of a resource (operations take over twenty names).
export const EmbedQuery = Type.Optional(
  Type.Array(Type.String({ maxLength: 1000 }), {
    maxItems: 20,
    description: 'Sub-resources to embed: a comma list or repeated parameters',
  }),
);

/** An operating state as workplaces and predicted malfunctions show it. */
export const OperatingStateProperty = Type.Object({
  id: Type.String(),
  code: Type.String(),
  description: Type.String(),
  workplaceStateId: Type.Enum([...WORKPLACE_STATE_IDS]),
});

export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A body field that may be left out or sent null. */
export const optional = <T extends Type.TSchema>(schema: T) => Type.Optional(Nullable(schema));
/** A text body field of at most `maxLength` characters that may be left out or sent null. */
export const optionalText = (maxLength: number) => optional(Type.String({ maxLength }));
/** A list body field that may be left out. */
export const optionalList = <T extends Type.TSchema>(item: T) =>
  Type.Optional(Type.Array(item, { maxItems: 1000 }));

/** The identity of a resource the ERP system numbers, as the resource and its references show it. */
export const NumberedProperties = {
  id: Uuid,
  number: Type.String(),
  description: Nullable(Type.String()),
  erpContextId: Nullable(Type.String()),
};

/** Error answers every authenticated route can give. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries([400, 401, 403, ...statuses].map((status) => [status, Type.Ref('Error')]));

/** A replaced resource may repeat its id in the body (or send it null), but not a different one. */
export function checkBodyId(bodyId: string | null | undefined, pathId: string): void {
  if (bodyId != null && bodyId !== pathId) throw new AppError('ID_MISMATCH', { bodyId, pathId });
}

/**
 * The id in a body that both creates and replaces: the service chooses a new resource's id, so a
 * create takes it absent or null (as generated clients send it) and refuses any other value.
 */
export const BodyId = Type.Optional(
  Nullable(
    Type.String({
      description: 'Absent or null on create (the service chooses it); on replace it must equal the path id',
    }),
  ),
);

/** A create body's id, absent or null; anything else is 400 READ_ONLY_PROPERTY. */
export function refuseBodyId(body: unknown): void {
  const id = (body as { id?: unknown } | undefined)?.id;
  if (id !== undefined && id !== null) throw new AppError('READ_ONLY_PROPERTY', { field: 'id' });
}
