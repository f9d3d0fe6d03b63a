import { hasMachine } from '../../domain/machines.ts';
import { operatingStateById } from '../../domain/masterData.ts';
import type { RecordedOperatingState, Workplace, WorkplaceGroup } from '../../domain/workplaces.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  MACHINES_PATH,
  OPERATING_STATES_PATH,
  OPERATIONS_PATH,
  WORKPLACE_GROUPS_PATH,
  WORKPLACES_PATH,
  workplaceLocationPath,
} from '../paths.ts';
import { operatingStateProperty, presentOperatingState } from './masterDataPresenter.ts';
import { TEXT_EMBEDS, textLinks } from './texts.ts';
import type { View } from './view.ts';
import { groupProperty, presentWorkplaceGroup } from './workplaceGroupPresenter.ts';

export const WORKPLACE_EMBEDS = [
  'capacityGroup',
  'productionLine',
  'currentOperations',
  'currentStaffMembers',
  'location',
  'machine',
  ...TEXT_EMBEDS,
] as const;
export type WorkplaceEmbed = (typeof WORKPLACE_EMBEDS)[number];

export interface WorkplaceView extends View<WorkplaceEmbed> {
  /** The workplaces' groups (shown and embedded), by id. */
  groups: ReadonlyMap<string, WorkplaceGroup>;
  /** Embedded current operations and staff members, presented, by workplace id (when asked for). */
  current?: {
    operations: ReadonlyMap<string, Resource[]>;
    staffMembers: ReadonlyMap<string, Resource[]>;
  };
  /** Embedded machines, presented, by workplace id (when asked for; a manual workplace has none). */
  machines?: ReadonlyMap<string, Resource>;
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
  if (view.embed.has('currentOperations'))
    embedded.currentOperations = view.current?.operations.get(workplace.id) ?? [];
  if (view.embed.has('currentStaffMembers'))
    embedded.currentStaffMembers = view.current?.staffMembers.get(workplace.id) ?? [];
  // The location is read with the workplace: embedding it reads nothing more.
  if (view.embed.has('location')) embedded.location = presentWorkplaceLocation(workplace, hrefs);
  const machine = view.embed.has('machine') ? view.machines?.get(workplace.id) : undefined;
  if (machine) embedded.machine = machine;
  return resource(
    {
      id: workplace.id,
      number: workplace.number,
      description: workplace.description,
      isManualWorkplace: workplace.isManualWorkplace,
      workplaceType: workplace.workplaceType,
      erpContextId: workplace.erpContextId,
      operatingState: operatingStateProperty(operatingStateById(workplace.operatingStateId), view.locale),
      capacityGroupId: workplace.capacityGroupId,
      capacityGroup: groupProperty(capacityGroup),
      productionLineId: workplace.productionLineId,
      productionLine: groupProperty(productionLine),
    },
    {
      self: link(hrefs.api(self)),
      ...textLinks(hrefs, 'workplaces', workplace),
      capacityGroup: link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${workplace.capacityGroupId}`), {
        embeddable: true,
      }),
      productionLine: workplace.productionLineId
        ? link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${workplace.productionLineId}`), { embeddable: true })
        : undefined,
      operatingState: link(hrefs.api(`${OPERATING_STATES_PATH}/${workplace.operatingStateId}`)),
      // A machine workplace's machine has the workplace's id (docs/resources/machines.md).
      machine: hasMachine(workplace)
        ? link(hrefs.api(`${MACHINES_PATH}/${workplace.id}`), { embeddable: true })
        : undefined,
      // The operations in progress here, and the staff with an open activity here (docs/resources/workplaces.md).
      currentOperations: link(
        hrefs.api(OPERATIONS_PATH, { isInProgress: 'true', workplaceId: workplace.id }),
        { embeddable: true },
      ),
      currentStaffMembers: link(hrefs.api(self, { embed: 'currentStaffMembers' }), { embeddable: true }),
      // The collection and the sub-resources the service serves, under the real API's names
      // (docs/resources/workplaces.md, "Sub-resources").
      workplaces: link(hrefs.api(WORKPLACES_PATH)),
      location: link(hrefs.api(workplaceLocationPath(workplace.id)), { embeddable: true }),
      recordedOperatingStates: link(hrefs.api(`${self}/recordedOperatingStates`)),
      recordedOutputQuantities: link(hrefs.api(`${self}/recordedOutputQuantities`)),
      recordedOperationPhases: link(hrefs.api(`${self}/recordedOperationPhases`)),
      quantitySummary: link(hrefs.api(`${self}/quantitySummary`)),
      operatingStateSummary: link(hrefs.api(`${self}/operatingStateSummary`)),
      scheduledOperatingTimes: link(hrefs.api(`${self}/scheduledOperatingTimes`)),
      scheduledMaintenanceTimes: link(hrefs.api(`${self}/scheduledMaintenanceTimes`)),
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

/** A workplace's location: its coordinates, null when unknown (docs/resources/workplaces.md, "Location"). */
export function presentWorkplaceLocation(workplace: Workplace, hrefs: Hrefs): Resource {
  const geo = workplace.geoCoordinates;
  return resource(
    { geoCoordinates: geo === null ? null : { latitude: geo.latitude, longitude: geo.longitude } },
    {
      self: link(hrefs.api(workplaceLocationPath(workplace.id))),
      workplace: link(hrefs.api(`${WORKPLACES_PATH}/${workplace.id}`), { embeddable: true }),
    },
  );
}

/** A recorded operating state may embed its operating state (the master data entry). */
export const RECORDED_OPERATING_STATE_EMBEDS = ['operatingState'] as const;

export function presentRecordedOperatingState(
  record: RecordedOperatingState,
  view: View<(typeof RECORDED_OPERATING_STATE_EMBEDS)[number]>,
): Resource {
  const { hrefs, locale } = view;
  const workplace = `${WORKPLACES_PATH}/${record.workplaceId}`;
  const state = operatingStateById(record.operatingStateId);
  return resource(
    {
      id: record.id,
      workplaceId: record.workplaceId,
      operatingState: operatingStateProperty(state, locale),
      startDate: record.startDate.toISOString(),
      endDate: record.endDate?.toISOString() ?? null,
    },
    {
      self: link(hrefs.api(`${workplace}/recordedOperatingStates/${record.id}`)),
      workplace: link(hrefs.api(workplace)),
      operatingState: link(hrefs.api(`${OPERATING_STATES_PATH}/${state.id}`), { embeddable: true }),
    },
    view.embed.has('operatingState') ? { operatingState: presentOperatingState(state, hrefs, locale) } : {},
  );
}
