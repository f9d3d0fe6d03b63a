import type { Queryable } from '../../db/database.ts';
import { findOpenActivities } from '../../db/repositories/staffMemberRepository.ts';
import {
  activityOf,
  type RecordedActivity,
  type StaffMember,
  type StaffMemberShift,
} from '../../domain/staffMembers.ts';
import type { Workplace } from '../../domain/workplaces.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { masterDataKind } from '../masterDataKinds.ts';
import { OPERATIONS_PATH, STAFF_MEMBERS_PATH, shiftsPath, WORKPLACES_PATH } from '../paths.ts';
import { RecordedActivitySchema, StaffMemberSchema } from '../schemas/staffMemberSchemas.ts';
import { timePeriod } from './historyPresenter.ts';
import { iso, linkTo, propertiesOf } from './properties.ts';
import { textLinks } from './texts.ts';

/** What a staff member embeds on request: the SDK's names (its StaffMemberEmbed). */
export const STAFF_MEMBER_EMBEDS = [
  'erpContext',
  'currentlyExecutedOperations',
  'assignedWorkplaces',
  'location',
] as const;
export type StaffMemberEmbed = (typeof STAFF_MEMBER_EMBEDS)[number];

/**
 * `canWrite`: whether the caller may change things; the addActivity action is offered only then.
 * `open`: the staff member's open activity records, whose operations are the ones they execute now.
 */
export function presentStaffMember(
  member: StaffMember,
  hrefs: Hrefs,
  canWrite: boolean,
  open: readonly RecordedActivity[],
  /** The sub-resources asked for with `embed`, presented. */
  embedded: Record<string, unknown> = {},
): Resource {
  const self = `${STAFF_MEMBERS_PATH}/${member.id}`;
  const presented = resource(
    {
      ...propertiesOf(StaffMemberSchema, member),
      absences: member.absences.map((absence) => ({
        startDate: iso(absence.startDate),
        endDate: iso(absence.endDate),
        reason: absence.reason,
      })),
    },
    {
      self: link(hrefs.api(self)),
      erpContext: textLinks(hrefs, null, member).erpContext,
      assignedWorkplaces: link(hrefs.api(`${self}/assignedWorkplaces`), { embeddable: true }),
      skills: link(hrefs.api(`${self}/skills`)),
      scheduledWorkingTimes: link(hrefs.api(`${self}/scheduledWorkingTimes`)),
      location: link(hrefs.api(`${self}/location`), { embeddable: true }),
      recordedActivities: link(hrefs.api(`${self}/recordedActivities`)),
      addActivity: canWrite ? link(hrefs.api(`${self}/activities`), { method: 'POST' }) : undefined,
    },
    embedded,
  );
  // A list of links, as the SDK reads it: one per operation the staff member is signed on to.
  const operationIds = new Set(open.flatMap((record) => record.operationId ?? []));
  (presented._links as Record<string, Link | Link[]>).currentlyExecutedOperations = [...operationIds].map(
    (id) => link(hrefs.api(`${OPERATIONS_PATH}/${id}`), { embeddable: true }),
  );
  return presented;
}

/** The open activity records of each of these staff members, by staff member id (one query). */
export async function openActivitiesOf(
  db: Queryable,
  members: readonly StaffMember[],
): Promise<Map<string, RecordedActivity[]>> {
  const byMember = new Map<string, RecordedActivity[]>();
  for (const record of await findOpenActivities(
    db,
    members.map((member) => member.id),
  ))
    byMember.set(record.staffMemberId, [...(byMember.get(record.staffMemberId) ?? []), record]);
  return byMember;
}

export function presentRecordedActivity(record: RecordedActivity, hrefs: Hrefs): Resource {
  const staffMember = `${STAFF_MEMBERS_PATH}/${record.staffMemberId}`;
  return resource(propertiesOf(RecordedActivitySchema, { ...record, activity: activityOf(record) }), {
    self: link(hrefs.api(`${staffMember}/recordedActivities/${record.id}`)),
    staffMember: link(hrefs.api(staffMember)),
    operation: linkTo(hrefs, OPERATIONS_PATH, record.operationId),
    workplace: linkTo(hrefs, WORKPLACES_PATH, record.workplaceId),
  });
}

/**
 * Where a staff member is: the location of the workplace of their latest open activity, null
 * while they are signed on nowhere (docs/resources/staff-members.md).
 */
export function presentStaffMemberLocation(
  memberId: string,
  workplace: Workplace | null,
  hrefs: Hrefs,
): Resource {
  const geo = workplace?.geoCoordinates ?? null;
  const self = `${STAFF_MEMBERS_PATH}/${memberId}`;
  return resource(
    { geoCoordinates: geo === null ? null : { latitude: geo.latitude, longitude: geo.longitude } },
    {
      self: link(hrefs.api(`${self}/location`)),
      staffMember: link(hrefs.api(self)),
      workplace: workplace ? link(hrefs.api(`${WORKPLACES_PATH}/${workplace.id}`)) : undefined,
    },
  );
}

/**
 * A shift a staff member works, as the SDK's staff member shift shows it: the period below
 * `shift`, its day the UTC day of its start (the bridge keeps no production calendar), no breaks.
 */
export function presentStaffMemberShift(
  shift: StaffMemberShift,
  hrefs: Hrefs,
  members: ReadonlyMap<string, Resource>,
  types: ReadonlyMap<string, Resource>,
): Resource {
  const member = members.get(shift.staffMemberId);
  const type = shift.shiftTypeId === null ? undefined : types.get(shift.shiftTypeId);
  return resource(
    {
      id: shift.id,
      staffMemberId: shift.staffMemberId,
      shift: {
        timePeriod: timePeriod(shift),
        associatedDay: shift.startDate.toISOString().slice(0, 10),
        breaks: [],
      },
      shiftTypeId: shift.shiftTypeId,
    },
    {
      self: link(hrefs.api(`${STAFF_MEMBERS_PATH}/shifts/${shift.id}`)),
      shiftType:
        shift.shiftTypeId === null
          ? undefined
          : link(hrefs.api(`${masterDataKind('shiftTypes').path}/${shift.shiftTypeId}`), {
              embeddable: true,
            }),
      staffMember: link(hrefs.api(`${STAFF_MEMBERS_PATH}/${shift.staffMemberId}`), { embeddable: true }),
      workplaceShift: link(hrefs.api(`${shiftsPath(shift.workplaceId)}/${shift.shiftId}`)),
    },
    { ...(member ? { staffMember: member } : {}), ...(type ? { shiftType: type } : {}) },
  );
}
