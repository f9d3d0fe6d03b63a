import { operatingStateById } from '../../domain/masterData.ts';
import type { RecordedOperatingState, Workplace, WorkplaceGroup } from '../../domain/workplaces.ts';
import type { Locale } from '../../i18n/locales.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { OPERATING_STATES_PATH, WORKPLACE_GROUPS_PATH, WORKPLACES_PATH } from '../paths.ts';
import { operatingStateProperty } from './masterData.ts';
import type { View } from './view.ts';
import { presentWorkplaceGroup } from './workplaceGroups.ts';

export const WORKPLACE_EMBEDS = ['capacityGroup', 'productionLine'] as const;
export type WorkplaceEmbed = (typeof WORKPLACE_EMBEDS)[number];

export interface WorkplaceView extends View<WorkplaceEmbed> {
  /** Groups loaded for embedding, by id. */
  groups: ReadonlyMap<string, WorkplaceGroup>;
}

export function presentWorkplace(workplace: Workplace, view: WorkplaceView): Resource {
  const { hrefs } = view;
  const self = `${WORKPLACES_PATH}/${workplace.id}`;
  const embedded: Record<string, unknown> = {};
  const capacityGroup = view.groups.get(workplace.capacityGroupId);
  if (view.embed.has('capacityGroup') && capacityGroup)
    embedded.capacityGroup = presentWorkplaceGroup(capacityGroup, hrefs);
  const productionLine = workplace.productionLineId ? view.groups.get(workplace.productionLineId) : undefined;
  if (view.embed.has('productionLine') && productionLine) {
    embedded.productionLine = presentWorkplaceGroup(productionLine, hrefs);
  }
  return resource(
    {
      id: workplace.id,
      number: workplace.number,
      description: workplace.description,
      isManualWorkplace: workplace.isManualWorkplace,
      operatingState: operatingStateProperty(operatingStateById(workplace.operatingStateId), view.locale),
      capacityGroupId: workplace.capacityGroupId,
      productionLineId: workplace.productionLineId,
    },
    {
      self: link(hrefs.api(self)),
      capacityGroup: link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${workplace.capacityGroupId}`), {
        embeddable: true,
      }),
      productionLine: workplace.productionLineId
        ? link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${workplace.productionLineId}`), { embeddable: true })
        : undefined,
      operatingState: link(hrefs.api(`${OPERATING_STATES_PATH}/${workplace.operatingStateId}`)),
      recordedOperatingStates: link(hrefs.api(`${self}/recordedOperatingStates`)),
      devices: link(hrefs.api(`${self}/devices`)),
      shifts: link(hrefs.api(`${self}/shifts`)),
      scheduledMaintenances: link(hrefs.api(`${self}/scheduledMaintenances`)),
      predictedMalfunctionScenarios: link(
        hrefs.api(`${WORKPLACES_PATH}/predictedMalfunctionScenarios`, { workplaceId: workplace.id }),
      ),
      changeOperatingState: view.canWrite
        ? link(hrefs.api(`${self}/operatingState/{operatingStateId}`), { method: 'POST', templated: true })
        : undefined,
    },
    embedded,
  );
}

export function presentRecordedOperatingState(
  record: RecordedOperatingState,
  hrefs: Hrefs,
  locale: Locale,
): Resource {
  const workplace = `${WORKPLACES_PATH}/${record.workplaceId}`;
  return resource(
    {
      id: record.id,
      workplaceId: record.workplaceId,
      operatingState: operatingStateProperty(operatingStateById(record.operatingStateId), locale),
      startDate: record.startDate.toISOString(),
      endDate: record.endDate?.toISOString() ?? null,
    },
    {
      self: link(hrefs.api(`${workplace}/recordedOperatingStates/${record.id}`)),
      workplace: link(hrefs.api(workplace)),
    },
  );
}
