import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { OffsetPage, OffsetRequest } from '../../db/paging.ts';
import * as repository from '../../db/repositories/masterDataRepository.ts';
import { notFound } from '../../domain/errors.ts';
import { type MasterDataEntry, OPERATING_STATES, WORKPLACE_STATES } from '../../domain/masterData.ts';
import type { MaterialEntry, MasterDataEntry as StoredEntry } from '../../domain/masterDataEntries.ts';
import { OPERATION_PHASES } from '../../domain/operationPhases.ts';
import { TOOL_ASSEMBLY_ORDER_STATES } from '../../domain/toolAssemblyOrderStates.ts';
import * as service from '../../services/masterDataService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { MASTER_DATA_KINDS, type MasterDataKindRow } from '../masterDataKinds.ts';
import {
  LITERALS_PATH,
  MASTER_DATA_PATH,
  MATERIALS_PATH,
  OPERATING_STATES_PATH,
  OPERATION_PHASES_PATH,
  TOOL_ASSEMBLY_ORDER_STATES_PATH,
  WORKPLACE_STATES_PATH,
} from '../paths.ts';
import {
  CODE_HELD_EMBEDS,
  materialLiteralId,
  OPERATING_STATE_EMBEDS,
  presentCodeHeldPage,
  presentLiteral,
  presentMaterial,
  presentOperatingStates,
  presentStoredEntry,
} from '../presenters/masterDataPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { optional, Resource as ResourceSchema } from '../schemas/common.ts';
import { LiteralSchema, MaterialSchema, StoredEntrySchema } from '../schemas/masterDataSchemas.ts';

const Entry = ResourceSchema(
  Type.Object({
    id: Type.String(),
    code: Type.String(),
    description: Type.String(),
    shortDescription: Type.String(),
    color: Type.String(),
    workplaceStateId: Type.Optional(Type.String()),
    operatingStateClassId: optional(Type.String()),
  }),
  'Master data entry (localized)',
);

/** The lists the service's own rules are written against, held in code: path, name, singular. */
const CODE_HELD = [
  [OPERATING_STATES_PATH, 'operatingStates', 'operatingState'],
  [WORKPLACE_STATES_PATH, 'workplaceStates', 'workplaceState'],
  [OPERATION_PHASES_PATH, 'operationPhases', 'operationPhase'],
  [TOOL_ASSEMBLY_ORDER_STATES_PATH, 'toolAssemblyOrderStates', 'toolAssemblyOrderState'],
] as const;

const TAGS = ['master data'];

/** Read-only, localized master data lists (docs/resources/masterData.md). */
export function registerMasterData(api: Api, deps: ServerDeps): void {
  registerCodeHeld(api, deps);
  for (const kind of MASTER_DATA_KINDS) registerStoredKind(api, deps, kind);
  registerMasterDataEntry(api);
  registerLiterals(api, deps);
  registerMaterials(api, deps);
}

function registerCodeHeld(api: Api, { db }: ServerDeps): void {
  const list = <E extends MasterDataEntry, Embed extends string>(
    [path, name, singular]: (typeof CODE_HELD)[number],
    entries: readonly E[],
    embeds: readonly Embed[],
    present: (entries: E[], request: FastifyRequest, embed: ReadonlySet<Embed>) => Promise<Resource[]>,
  ) => {
    const routes = resourceRoutes(api, {
      tags: TAGS,
      path,
      name,
      schema: Entry,
      embeds,
      presentPage: present,
    });
    routes.list({
      summary: `List ${name}`,
      load: async (_filter, { limit, offset }) => ({
        items: entries.slice(offset, offset + limit),
        total: entries.length,
      }),
    });
    routes.get({
      summary: `One of the ${name}`,
      load: async ({ id }) => {
        const entry = entries.find((candidate) => candidate.id === id);
        if (!entry) throw notFound(singular, id);
        return entry;
      },
    });
  };
  const [operatingStates, workplaceStates, operationPhases, assemblyOrderStates] = CODE_HELD;
  list(operatingStates, OPERATING_STATES, OPERATING_STATE_EMBEDS, presentOperatingStates(db));
  list(workplaceStates, WORKPLACE_STATES, CODE_HELD_EMBEDS, presentCodeHeldPage('workplaceStates'));
  list(operationPhases, OPERATION_PHASES, CODE_HELD_EMBEDS, presentCodeHeldPage('operationPhases'));
  list(
    assemblyOrderStates,
    TOOL_ASSEMBLY_ORDER_STATES,
    CODE_HELD_EMBEDS,
    presentCodeHeldPage('toolAssemblyOrderStates'),
  );
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** One kind kept in `master_data_entries`: its list in offset pages and its items. */
function registerStoredKind(api: Api, { db }: ServerDeps, kind: MasterDataKindRow): void {
  const { reference } = kind;
  const routes = resourceRoutes(api, {
    tags: TAGS,
    path: kind.path,
    name: kind.kind,
    schema: StoredEntrySchema(kind),
    embeds: [...Object.keys(kind.texts), ...(reference ? [reference.rel] : [])],
    presentPage: async (entries: StoredEntry[], { hrefs, locale }, embed) => {
      // What the page's references name, in one read, when they are to be embedded.
      const referenced = new Map<string, StoredEntry>();
      if (reference && embed.has(reference.rel)) {
        const ids = entries.map((entry) => entry.attributes[reference.property]);
        const named = ids.filter((id): id is string => typeof id === 'string');
        for (const other of await repository.findMasterDataEntries(db, reference.kind, [...new Set(named)]))
          referenced.set(other.id, other);
      }
      return entries.map((entry) => presentStoredEntry(kind, entry, hrefs, locale, embed, referenced));
    },
  });
  routes.list({
    summary: `List ${kind.kind}`,
    load: (_filter, page) => repository.listMasterDataEntries(db, kind.kind, page),
  });
  routes.get({
    summary: `One of the ${kind.kind}`,
    operationId: `get${pascal(kind.singular)}`,
    load: ({ id }) => service.getMasterDataEntry(db, kind.kind, kind.singular, id),
  });
}

/** GET /masterData: links to every master data collection, as the real API's entry to them. */
function registerMasterDataEntry(api: Api): void {
  const paths: [string, string][] = [
    ...CODE_HELD.map(([path, name]): [string, string] => [name, path]),
    ...MASTER_DATA_KINDS.filter((kind) => kind.path.startsWith(`${MASTER_DATA_PATH}/`)).map(
      (kind): [string, string] => [kind.kind, kind.path],
    ),
  ];
  registerRoute(api, {
    method: 'GET',
    path: MASTER_DATA_PATH,
    tags: TAGS,
    operationId: 'getMasterData',
    summary: 'Links to every master data collection',
    response: { 200: ResourceSchema(Type.Object({}), 'Master data entry point') },
    handler: async ({ hrefs }) =>
      resource(
        {},
        {
          self: link(hrefs.api(MASTER_DATA_PATH)),
          ...Object.fromEntries(paths.map(([name, path]) => [name, link(hrefs.api(path))])),
        },
      ),
  });
}

/** A read-only collection in offset pages whose items present on their own. */
function readOnly<Item>(
  api: Api,
  collection: { path: string; name: string; schema: TSchema; summary: string; one: string },
  present: (item: Item, hrefs: Hrefs) => Resource,
  list: (page: OffsetRequest) => Promise<OffsetPage<Item>>,
  get: (id: string) => Promise<Item>,
): void {
  const { path, name, schema, summary, one } = collection;
  const routes = resourceRoutes(api, {
    tags: TAGS,
    path,
    name,
    schema,
    present,
  });
  routes.list({ summary, load: (_filter, page) => list(page) });
  routes.get({ summary: one, load: ({ id }) => get(id) });
}

function registerLiterals(api: Api, { db }: ServerDeps): void {
  readOnly(
    api,
    {
      path: LITERALS_PATH,
      name: 'literals',
      schema: LiteralSchema,
      summary: 'List literals (texts in every language)',
      one: 'One literal',
    },
    presentLiteral,
    (page) => repository.listLiterals(db, page),
    (id) => service.getLiteral(db, id),
  );
}

function registerMaterials(api: Api, { db }: ServerDeps): void {
  const routes = resourceRoutes(api, {
    tags: TAGS,
    path: MATERIALS_PATH,
    name: 'materials',
    schema: MaterialSchema,
    embeds: ['description'],
    // The page's description literals in one read, only when `embed` names them.
    presentPage: async (materials: MaterialEntry[], { hrefs }, embed) => {
      const ids = embed.has('description')
        ? materials.flatMap((material) =>
            material.description === null ? [] : materialLiteralId(material.number),
          )
        : [];
      const literals = new Map(
        (await repository.findLiterals(db, ids)).map((literal) => [literal.id, literal]),
      );
      return materials.map((material) => {
        const literal = literals.get(materialLiteralId(material.number));
        return presentMaterial(material, hrefs, literal && presentLiteral(literal, hrefs));
      });
    },
  });
  routes.list({
    summary: 'List the materials production orders and operations name',
    load: (_filter, page) => repository.listMaterials(db, page),
  });
  routes.get({ load: ({ id }) => service.getMaterial(db, id) });
}
