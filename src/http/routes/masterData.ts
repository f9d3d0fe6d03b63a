import { Type } from 'typebox';
import { notFound } from '../../domain/errors.ts';
import { type MasterDataEntry, OPERATING_STATES, WORKPLACE_STATES } from '../../domain/masterData.ts';
import { OPERATION_PHASES } from '../../domain/operationPhases.ts';
import { TOOL_ASSEMBLY_ORDER_STATES } from '../../domain/toolAssemblyOrderStates.ts';
import type { Locale } from '../../i18n/locales.ts';
import type { Api } from '../api.ts';
import { type Resource as HalResource, offsetCollection } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  OPERATING_STATES_PATH,
  OPERATION_PHASES_PATH,
  TOOL_ASSEMBLY_ORDER_STATES_PATH,
  WORKPLACE_STATES_PATH,
} from '../paths.ts';
import { presentMasterDataEntry, presentOperatingState } from '../presenters/masterData.ts';
import {
  errorResponses,
  IdParams,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  Resource,
} from '../schemas/common.ts';

const EntryProperties = Type.Object({
  id: Type.String(),
  code: Type.String(),
  description: Type.String(),
  shortDescription: Type.String(),
  color: Type.String(),
  workplaceStateId: Type.Optional(Type.String()),
});
const Entry = Resource(EntryProperties, 'Master data entry (localized)');

/** Read-only, localized master data lists (contract 4). */
export function registerMasterData(api: Api): void {
  const list = <E extends MasterDataEntry>(
    path: string,
    name: string,
    /** Singular, as 404 messages name it ("There is no operatingState with id ..."). */
    singular: string,
    entries: readonly E[],
    present: (entry: E, hrefs: Hrefs, locale: Locale) => HalResource,
  ) => {
    api.get(
      path,
      {
        schema: {
          tags: ['master data'],
          summary: `List ${name}`,
          querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
          response: { 200: OffsetCollection(name, Entry), ...errorResponses() },
        },
      },
      async (request) => {
        const { limit, offset } = offsetPage(request.query);
        const page = entries.slice(offset, offset + limit);
        return offsetCollection(
          { hrefs: request.hrefs, path, name, query: {} },
          page.map((entry) => present(entry, request.hrefs, request.locale)),
          { items: page, total: entries.length },
          { limit, offset },
        );
      },
    );
    api.get(
      `${path}/:id`,
      {
        schema: {
          tags: ['master data'],
          summary: `One of the ${name}`,
          params: IdParams,
          response: { 200: Entry, ...errorResponses(404) },
        },
      },
      async (request) => {
        const entry = entries.find((candidate) => candidate.id === request.params.id);
        if (!entry) throw notFound(singular, request.params.id);
        return present(entry, request.hrefs, request.locale);
      },
    );
  };
  list(OPERATING_STATES_PATH, 'operatingStates', 'operatingState', OPERATING_STATES, presentOperatingState);
  list(
    WORKPLACE_STATES_PATH,
    'workplaceStates',
    'workplaceState',
    WORKPLACE_STATES,
    presentMasterDataEntry(WORKPLACE_STATES_PATH),
  );
  list(
    OPERATION_PHASES_PATH,
    'operationPhases',
    'operationPhase',
    OPERATION_PHASES,
    presentMasterDataEntry(OPERATION_PHASES_PATH),
  );
  list(
    TOOL_ASSEMBLY_ORDER_STATES_PATH,
    'toolAssemblyOrderStates',
    'toolAssemblyOrderState',
    TOOL_ASSEMBLY_ORDER_STATES,
    presentMasterDataEntry(TOOL_ASSEMBLY_ORDER_STATES_PATH),
  );
}
