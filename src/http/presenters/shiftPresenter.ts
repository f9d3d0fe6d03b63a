import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { findMasterDataEntries } from '../../db/repositories/masterDataRepository.ts';
import type { MasterDataEntry } from '../../domain/masterDataEntries.ts';
import type { Shift } from '../../domain/shifts.ts';
import type { Locale } from '../../i18n/locales.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { masterDataKind } from '../masterDataKinds.ts';
import { shiftsPath, WORKPLACES_PATH } from '../paths.ts';
import { ShiftSchema } from '../schemas/shiftSchemas.ts';
import { timePeriod } from './historyPresenter.ts';
import { presentStoredEntry } from './masterDataPresenter.ts';
import { propertiesOf } from './properties.ts';

const shiftTypeLink = (shift: Shift, hrefs: Hrefs): Link | undefined =>
  shift.shiftTypeId === null
    ? undefined
    : link(hrefs.api(`${masterDataKind('shiftTypes').path}/${shift.shiftTypeId}`), { embeddable: true });

export function presentShift(shift: Shift, hrefs: Hrefs): Resource {
  return resource(propertiesOf(ShiftSchema, shift), {
    self: link(hrefs.api(`${shiftsPath(shift.workplaceId)}/${shift.id}`)),
    workplace: link(hrefs.api(`${WORKPLACES_PATH}/${shift.workplaceId}`)),
    shiftType: shiftTypeLink(shift, hrefs),
  });
}

/** What `embed` may name on /workplaces/shifts. */
export const WORKPLACE_SHIFT_EMBEDS = ['workplace', 'shiftType'] as const;
export type WorkplaceShiftEmbed = (typeof WORKPLACE_SHIFT_EMBEDS)[number];

interface WorkplaceShiftView {
  hrefs: Hrefs;
  locale: Locale;
  embed: ReadonlySet<WorkplaceShiftEmbed>;
  /** The shift types the page's shifts name, by id. */
  shiftTypes: ReadonlyMap<string, MasterDataEntry>;
  /** The workplaces to embed, by id. */
  workplaces: ReadonlyMap<string, Resource>;
}

/**
 * A shift type as a workplace shift embeds it: the master data entry with its `color`, which the
 * SDK's recordings show there though /masterData/shiftTypes does not (docs/resources/workplaces.md).
 */
function presentEmbeddedShiftType(shiftType: MasterDataEntry, view: WorkplaceShiftView): Resource {
  const entry = presentStoredEntry(
    masterDataKind('shiftTypes'),
    shiftType,
    view.hrefs,
    view.locale,
    new Set(),
  );
  return { ...entry, properties: { ...entry.properties, color: shiftType.color } };
}

/**
 * A shift as /workplaces/shifts shows it (the SDK's workplace shift). The SDK's recordings show its
 * period both flat and below `shift`; both are given so readers of either form work.
 */
function presentWorkplaceShift(shift: Shift, view: WorkplaceShiftView): Resource {
  const { hrefs, embed } = view;
  const period = {
    timePeriod: timePeriod(shift),
    // The UTC day of its start: the bridge keeps no production calendar.
    associatedDay: shift.startDate.toISOString().slice(0, 10),
    // The bridge keeps no breaks.
    breaks: [],
  };
  const shiftType = shift.shiftTypeId === null ? undefined : view.shiftTypes.get(shift.shiftTypeId);
  const isWorkingShift = shiftType?.attributes.isWorkingShift;
  const workplace = embed.has('workplace') ? view.workplaces.get(shift.workplaceId) : undefined;
  return resource(
    {
      id: shift.id,
      workplaceId: shift.workplaceId,
      shift: period,
      ...period,
      shiftTypeId: shift.shiftTypeId,
      isWorkingShift: typeof isWorkingShift === 'boolean' ? isWorkingShift : null,
      name: shift.name,
      shiftModelId: shift.shiftModelId,
    },
    {
      self: link(hrefs.api(`${WORKPLACES_PATH}/shifts/${shift.id}`)),
      workplaceShift: link(hrefs.api(`${shiftsPath(shift.workplaceId)}/${shift.id}`)),
      workplace: link(hrefs.api(`${WORKPLACES_PATH}/${shift.workplaceId}`), { embeddable: true }),
      shiftType: shiftTypeLink(shift, hrefs),
    },
    {
      ...(workplace ? { workplace } : {}),
      ...(shiftType && embed.has('shiftType')
        ? { shiftType: presentEmbeddedShiftType(shiftType, view) }
        : {}),
    },
  );
}

/**
 * Presents a page of /workplaces/shifts: the shift types its shifts name in one query (each shift
 * shows whether its type is a working shift), the workplaces in one when embedded.
 */
export const presentWorkplaceShifts =
  (
    db: Queryable,
    embeddableWorkplaces: (
      db: Queryable,
      request: FastifyRequest,
      ids: readonly string[],
    ) => Promise<Map<string, Resource>>,
  ) =>
  async (shifts: Shift[], request: FastifyRequest, embed: ReadonlySet<WorkplaceShiftEmbed>) => {
    const typeIds = new Set(shifts.flatMap((shift) => shift.shiftTypeId ?? []));
    const types = await findMasterDataEntries(db, 'shiftTypes', [...typeIds]);
    const asked = embed.has('workplace') ? shifts.map((shift) => shift.workplaceId) : [];
    const view: WorkplaceShiftView = {
      hrefs: request.hrefs,
      locale: request.locale,
      embed,
      shiftTypes: new Map(types.map((type) => [type.id, type])),
      workplaces: await embeddableWorkplaces(db, request, asked),
    };
    return shifts.map((shift) => presentWorkplaceShift(shift, view));
  };
