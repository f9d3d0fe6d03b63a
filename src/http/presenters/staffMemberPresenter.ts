import { activityOf, type RecordedActivity, type StaffMember } from '../../domain/staffMembers.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { OPERATIONS_PATH, STAFF_MEMBERS_PATH, WORKPLACES_PATH } from '../paths.ts';
import { RecordedActivitySchema, StaffMemberSchema } from '../schemas/staffMemberSchemas.ts';
import { iso, linkTo, propertiesOf } from './properties.ts';
import { textLinks } from './texts.ts';

/** A staff member embeds its ERP context. */
export const STAFF_MEMBER_EMBEDS = ['erpContext'] as const;

/** `canWrite`: whether the caller may change things; the addActivity action is offered only then. */
export function presentStaffMember(member: StaffMember, hrefs: Hrefs, canWrite: boolean): Resource {
  const self = `${STAFF_MEMBERS_PATH}/${member.id}`;
  return resource(
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
      assignedWorkplaces: link(hrefs.api(`${self}/assignedWorkplaces`)),
      recordedActivities: link(hrefs.api(`${self}/recordedActivities`)),
      addActivity: canWrite ? link(hrefs.api(`${self}/activities`), { method: 'POST' }) : undefined,
    },
  );
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
