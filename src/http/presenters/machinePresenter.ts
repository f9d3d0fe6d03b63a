import type { Machine } from '../../domain/machines.ts';
import { operatingStateById } from '../../domain/masterData.ts';
import type { RecordedOperatingState } from '../../domain/workplaces.ts';
import { localize } from '../../i18n/locales.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import { MACHINE_STATES_PATH, MACHINES_PATH, WORKPLACES_PATH } from '../paths.ts';
import { textLinks } from './texts.ts';
import type { View } from './view.ts';

/** What `embed` may name: the SDK asks for all three; the workplace is embedded. */
export const MACHINE_EMBEDS = ['workplace', 'description', 'erpContext'] as const;
export type MachineEmbed = (typeof MACHINE_EMBEDS)[number];

export function presentMachine(machine: Machine, view: View<MachineEmbed>, workplace?: Resource): Resource {
  const { hrefs } = view;
  const self = `${MACHINES_PATH}/${machine.id}`;
  const links: Record<string, Link | undefined> = {
    self: link(hrefs.api(self)),
    workplace: link(hrefs.api(`${WORKPLACES_PATH}/${machine.workplaceId}`), { embeddable: true }),
    // A machine is its workplace's: the workplace's description literal is the machine's.
    ...textLinks(hrefs, 'workplaces', machine),
    machineState: machine.machineStateId
      ? link(hrefs.api(`${MACHINE_STATES_PATH}/${machine.machineStateId}`))
      : undefined,
    changeMachineState: view.canWrite
      ? link(hrefs.api(`${self}/{machineStateId}`), { method: 'POST', templated: true })
      : undefined,
  };
  return resource(
    {
      id: machine.id,
      number: machine.number,
      description: machine.description,
      erpContextId: machine.erpContextId,
      workplaceId: machine.workplaceId,
      machineStateId: machine.machineStateId,
    },
    links,
    view.embed.has('workplace') && workplace ? { workplace } : {},
  );
}

/** A record of the workplace history as the machine state details collection shows it. */
export function presentRecordedMachineStateDetail(
  record: RecordedOperatingState,
  view: View,
  now: Date,
): Resource {
  const state = operatingStateById(record.operatingStateId);
  const end = record.endDate ?? now;
  const workplace = `${WORKPLACES_PATH}/${record.workplaceId}`;
  return resource(
    {
      id: record.id,
      code: state.code,
      description: localize(state.description, view.locale),
      workplaceStateId: state.workplaceStateId,
      operatingStateId: state.id,
      machineStateDetailIds: record.machineStateDetailIds,
      remark: record.remark,
      timePeriod: {
        startDate: record.startDate.toISOString(),
        endDate: record.endDate?.toISOString() ?? null,
        duration: Math.max(0, end.getTime() - record.startDate.getTime()),
      },
    },
    {
      self: link(view.hrefs.api(`${workplace}/recordedOperatingStates/${record.id}`)),
      workplace: link(view.hrefs.api(workplace)),
    },
  );
}
