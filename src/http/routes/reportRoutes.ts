// The reports beside the OEE (docs/resources/reports.md): read scope, computed on every request
// on the app's clock. The lists page their elements by offset and embed, when asked
// (`embed=workplaces,operatingStates,...`), what the elements of the page refer to.
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { findMasterDataEntries } from '../../db/repositories/masterDataRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import { operatingStateById } from '../../domain/masterData.ts';
import * as service from '../../services/reportService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { embedQuery, parseEmbed } from '../embed.ts';
import { elementsPage, link, type Resource, resource } from '../hal.ts';
import type { QueryValues } from '../hrefs.ts';
import { masterDataKind } from '../masterDataKinds.ts';
import { PRODUCTION_ORDERS_PATH, REPORTS_PATH } from '../paths.ts';
import {
  presentMaterial,
  presentOperatingState,
  presentStoredEntry,
} from '../presenters/masterDataPresenter.ts';
import { windowProperties } from '../presenters/properties.ts';
import { registerRoute } from '../route.ts';
import { dateOf, offsetPage } from '../schemas/common.ts';
import {
  HitListMaterialSchema,
  HitListWorkplaceSchema,
  MaterialReportQuery,
  OpeQuery,
  OpeSchema,
  QualityDetailsMaterialSchema,
  QualityDetailsWorkplaceQuery,
  QualityDetailsWorkplaceSchema,
  TotalQuantitySchema,
  WorkplaceReportQuery,
} from '../schemas/reportSchemas.ts';
import { presentWorkplaces } from './workplaceRoutes.ts';

type Query = QueryValues & {
  startDate?: string;
  endDate?: string;
  workplaceId?: string;
  workplaceNumber?: string;
  workplaceGroupId?: string;
  workplaceGroupNumber?: string;
  materialId?: string;
  materialNumber?: string;
  productionOrderId?: string;
  limit?: number;
  offset?: number;
};

/** The scope a report's query names, its dates parsed. */
const scopeOf = (query: Query) => ({
  workplaceId: query.workplaceId,
  workplaceNumber: query.workplaceNumber,
  workplaceGroupId: query.workplaceGroupId,
  workplaceGroupNumber: query.workplaceGroupNumber,
  materialId: query.materialId,
  materialNumber: query.materialNumber,
  productionOrderId: query.productionOrderId,
  startDate: dateOf(query.startDate),
  endDate: dateOf(query.endDate),
});

const EMBEDS = ['workplaces', 'materials', 'operatingStates', 'qualityTypes', 'qualityDetails'] as const;
type Embed = (typeof EMBEDS)[number];

/** What the elements of a page refer to, by embed name. */
type References = Partial<Record<Embed, string[]>>;

/** The property of an element that names what each embed shows. */
const REFERENCE_PROPERTIES: Record<Embed, string> = {
  workplaces: 'workplaceId',
  materials: 'materialId',
  operatingStates: 'operatingStateId',
  qualityTypes: 'qualityTypeId',
  qualityDetails: 'qualityDetailId',
};

/** What the elements refer to under each of a report's embeds. */
const referencesOf = (embeds: readonly Embed[], elements: readonly object[]): References =>
  Object.fromEntries(
    embeds.map((embed) => [
      embed,
      unique(
        elements.map(
          (element) => (element as Record<string, string | null>)[REFERENCE_PROPERTIES[embed]] ?? null,
        ),
      ),
    ]),
  );

/** What a page refers to and the workplace or material its query names: what the report is about. */
function withScope(refs: References, query: Query): References {
  const material = query.materialId ?? query.materialNumber;
  return {
    ...refs,
    ...(refs.workplaces && query.workplaceId
      ? { workplaces: unique([query.workplaceId, ...refs.workplaces]) }
      : {}),
    ...(refs.materials && material ? { materials: unique([material, ...refs.materials]) } : {}),
  };
}

const unique = (values: readonly (string | null)[]) => [
  ...new Set(values.filter((value): value is string => value !== null)),
];

export function registerReports(api: Api, { db, clock }: ServerDeps): void {
  const now = () => clock?.now() ?? new Date();

  /** Quality types or details from the master data in the database (left out when not configured). */
  async function masterData(request: FastifyRequest, kind: string, ids: readonly string[]) {
    const entries = await findMasterDataEntries(db, kind, ids);
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    return ids.flatMap((id) => {
      const entry = byId.get(id);
      return entry
        ? [presentStoredEntry(masterDataKind(kind), entry, request.hrefs, request.locale, new Set())]
        : [];
    });
  }

  /** The embedded resources asked for, of what the page refers to. */
  async function embeddedOf(request: FastifyRequest, embed: ReadonlySet<Embed>, refs: References) {
    const embedded: Record<string, Resource[]> = {};
    if (embed.has('workplaces') && refs.workplaces) {
      const workplaces = await findWorkplaces(db, refs.workplaces);
      embedded.workplaces = await presentWorkplaces(
        db,
        request,
        workplaces.sort((a, b) => a.id.localeCompare(b.id)),
      );
    }
    if (embed.has('materials') && refs.materials) {
      embedded.materials = (await service.findMaterials(db, refs.materials)).map((material) =>
        presentMaterial(material, request.hrefs),
      );
    }
    if (embed.has('operatingStates') && refs.operatingStates) {
      embedded.operatingStates = refs.operatingStates.map((id) =>
        presentOperatingState(operatingStateById(id), request.hrefs, request.locale),
      );
    }
    if (embed.has('qualityTypes') && refs.qualityTypes)
      embedded.qualityTypes = await masterData(request, 'qualityTypes', refs.qualityTypes);
    if (embed.has('qualityDetails') && refs.qualityDetails)
      embedded.qualityDetails = await masterData(request, 'qualityDetails', refs.qualityDetails);
    return embedded;
  }

  /**
   * GET /reports/<name>: the entries `load` computes, as elements (`element`), one offset page of
   * them, with the embeds of what the page's elements refer to (REFERENCE_PROPERTIES).
   */
  function listReport<Entry, Element extends object>(options: {
    name: string;
    summary: string;
    description: string;
    querystring: TSchema;
    response: TSchema;
    embeds: readonly Embed[];
    load: (query: Query) => Promise<service.ReportList<Entry>>;
    element: (entry: Entry) => Element;
  }) {
    const path = `${REPORTS_PATH}/${options.name}`;
    registerRoute(api, {
      method: 'GET',
      path: path,
      tags: ['reports'],
      summary: options.summary,
      description: options.description,
      querystring: options.querystring,
      response: { 200: options.response },
      errors: [404],
      handler: async (request) => {
        const { embed: asked, ...query } = request.query as Query & { embed?: string[] };
        const named = parseEmbed(asked, options.embeds);
        // Without `embed`, all the report's embeds, as the SDK's server answers.
        const embed = asked === undefined ? new Set(options.embeds) : named;
        const { window, entries } = await options.load(query);
        const elements = entries.map(options.element);
        const page = offsetPage(query);
        const shown = elements.slice(page.offset, page.offset + page.limit);
        const { limit: _limit, offset: _offset, ...kept } = query;
        return elementsPage(
          { hrefs: request.hrefs, path, query: { ...kept, embed: embedQuery(named) } },
          windowProperties(window),
          elements,
          page,
          await embeddedOf(request, embed, withScope(referencesOf(options.embeds, shown), query)),
        );
      },
    });
  }

  const periodDescription = 'startDate/endDate: default the 24 hours up to now; at most 366 days.';
  const workplaceScope =
    'At most one of workplaceId, workplaceNumber, workplaceGroupId, workplaceGroupNumber; none: every workplace.';
  const materialScope =
    'materialId (a material is identified by its number) or materialNumber; none: every material.';

  listReport({
    name: 'hitListOperatingStatesWorkplace',
    summary: 'Time per workplace and operating state in the scheduled time of a period',
    description: `${workplaceScope} ${periodDescription}`,
    querystring: WorkplaceReportQuery,
    response: HitListWorkplaceSchema,
    embeds: ['workplaces', 'operatingStates'],
    load: (query) => service.getWorkplaceHitList(db, scopeOf(query), now()),
    element: ({ key, ...entry }) => ({ workplaceId: key, ...entry }),
  });

  listReport({
    name: 'hitListOperatingStatesMaterial',
    summary: 'Time per material and operating state while operations of the material ran',
    description: `${materialScope} ${periodDescription}`,
    querystring: MaterialReportQuery,
    response: HitListMaterialSchema,
    embeds: ['materials', 'operatingStates'],
    load: (query) => service.getMaterialHitList(db, scopeOf(query), now()),
    element: ({ key, ...entry }) => ({ materialId: key, ...entry }),
  });

  listReport({
    name: 'totalQuantity',
    summary: 'Quantities per workplace and operation booked in the scheduled time of a period',
    description: `${workplaceScope} ${periodDescription}`,
    querystring: WorkplaceReportQuery,
    response: TotalQuantitySchema,
    embeds: ['workplaces', 'materials'],
    load: (query) => service.getTotalQuantity(db, scopeOf(query), now()),
    element: (entry) => ({
      workplaceId: entry.workplaceId,
      materialId: entry.materialNumber,
      operationId: entry.operationId,
      startDate: entry.startDate.toISOString(),
      endDate: entry.endDate.toISOString(),
      targetQuantity: entry.targetQuantity,
      yieldQuantity: entry.yieldQuantity,
      scrapQuantity: entry.scrapQuantity,
      reworkQuantity: entry.reworkQuantity,
      totalQuantity: entry.totalQuantity,
    }),
  });

  listReport({
    name: 'qualityDetailsWorkplace',
    summary: 'Quantity per workplace, quality type and quality detail in the scheduled time of a period',
    description: `${workplaceScope} Optionally one material: materialId or materialNumber. ${periodDescription}`,
    querystring: QualityDetailsWorkplaceQuery,
    response: QualityDetailsWorkplaceSchema,
    embeds: ['workplaces', 'qualityTypes', 'qualityDetails'],
    load: (query) => service.getWorkplaceQualityDetails(db, scopeOf(query), now()),
    element: ({ key, ...entry }) => ({ workplaceId: key, ...entry }),
  });

  listReport({
    name: 'qualityDetailsMaterial',
    summary: 'Quantity per material, quality type and quality detail in the scheduled time of a period',
    description: `${materialScope} ${periodDescription}`,
    querystring: MaterialReportQuery,
    response: QualityDetailsMaterialSchema,
    embeds: ['materials', 'qualityTypes', 'qualityDetails'],
    load: (query) => service.getMaterialQualityDetails(db, scopeOf(query), now()),
    element: ({ key, ...entry }) => ({ materialId: key, ...entry }),
  });

  registerRoute(api, {
    method: 'GET',
    path: `${REPORTS_PATH}/overallProcessEfficiency`,
    tags: ['reports'],
    summary: 'Overall process efficiency (OPE) of a production order or a material in a period',
    description: `Exactly one of productionOrderId and materialId (or materialNumber). ${periodDescription}`,
    querystring: OpeQuery,
    response: { 200: OpeSchema },
    errors: [404],
    handler: async (request) => {
      const query = request.query as Query;
      const { window, summary } = await service.getOpeReport(db, scopeOf(query), now());
      return resource(
        {
          ...windowProperties(window),
          productionOrderId: query.productionOrderId ?? null,
          materialId: query.materialId ?? query.materialNumber ?? null,
          ...summary,
        },
        {
          self: link(request.hrefs.api(`${REPORTS_PATH}/overallProcessEfficiency`, query)),
          productionOrder: query.productionOrderId
            ? link(request.hrefs.api(`${PRODUCTION_ORDERS_PATH}/${query.productionOrderId}`))
            : undefined,
        },
      );
    },
  });
}
