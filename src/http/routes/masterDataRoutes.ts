import { Type } from 'typebox';
import { notFound } from '../../domain/errors.ts';
import { type MasterDataEntry, OPERATING_STATES, WORKPLACE_STATES } from '../../domain/masterData.ts';
import { OPERATION_PHASES } from '../../domain/operationPhases.ts';
import { TOOL_ASSEMBLY_ORDER_STATES } from '../../domain/toolAssemblyOrderStates.ts';
import type { Locale } from '../../i18n/locales.ts';
import type { Api } from '../api.ts';
import type { Resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  OPERATING_STATES_PATH,
  OPERATION_PHASES_PATH,
  TOOL_ASSEMBLY_ORDER_STATES_PATH,
  WORKPLACE_STATES_PATH,
} from '../paths.ts';
import { presentMasterDataEntry, presentOperatingState } from '../presenters/masterDataPresenter.ts';
import { each, resourceRoutes } from '../resourceRoutes.ts';
import { Resource as ResourceSchema } from '../schemas/common.ts';

const Entry = ResourceSchema(
  Type.Object({
    id: Type.String(),
    code: Type.String(),
    description: Type.String(),
    shortDescription: Type.String(),
    color: Type.String(),
    workplaceStateId: Type.Optional(Type.String()),
  }),
  'Master data entry (localized)',
);

/** Read-only, localized master data lists (docs/api.md, "States and transitions"). */
export function registerMasterData(api: Api): void {
  const list = <E extends MasterDataEntry>(
    path: string,
    name: string,
    /** Singular, as 404 messages name it ("There is no operatingState with id ..."). */
    singular: string,
    entries: readonly E[],
    present: (entry: E, hrefs: Hrefs, locale: Locale) => Resource,
  ) => {
    const routes = resourceRoutes(api, {
      tags: ['master data'],
      path,
      name,
      schema: Entry,
      present: each((entry: E, request) => present(entry, request.hrefs, request.locale)),
    });
    routes.list({
      summary: `List ${name}`,
      paging: 'offset',
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
