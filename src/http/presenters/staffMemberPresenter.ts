import { activityOf, type RecordedActivity, type StaffMember } from '../../domain/staffMembers.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { OPERATIONS_PATH, STAFF_MEMBERS_PATH, WORKPLACES_PATH } from '../paths.ts';

/** `canWrite`: whether the caller may change things; the addActivity action is offered only then. */
export function presentStaffMember(member: StaffMember, hrefs: Hrefs, canWrite: boolean): Resource {
  const self = `${STAFF_MEMBERS_PATH}/${member.id}`;
  return resource(
    {
      id: member.id,
      staffNumber: member.staffNumber,
      firstName: member.firstName,
      lastName: member.lastName,
      email: member.email,
      erpContextId: member.erpContextId,
      qualifications: member.qualifications,
      assignedWorkplaceIds: member.assignedWorkplaceIds,
      shiftId: member.shiftId,
      absences: member.absences.map((absence) => ({
        startDate: absence.startDate.toISOString(),
        endDate: absence.endDate.toISOString(),
        reason: absence.reason,
      })),
    },
    {
      self: link(hrefs.api(self)),
      assignedWorkplaces: link(hrefs.api(`${self}/assignedWorkplaces`)),
      recordedActivities: link(hrefs.api(`${self}/recordedActivities`)),
      addActivity: canWrite ? link(hrefs.api(`${self}/activities`), { method: 'POST' }) : undefined,
    },
  );
}

export function presentRecordedActivity(record: RecordedActivity, hrefs: Hrefs): Resource {
  const staffMember = `${STAFF_MEMBERS_PATH}/${record.staffMemberId}`;
  return resource(
    {
      id: record.id,
      staffMemberId: record.staffMemberId,
      operationId: record.operationId,
      workplaceId: record.workplaceId,
      activity: activityOf(record),
      startDate: record.startDate.toISOString(),
      endDate: record.endDate?.toISOString() ?? null,
    },
    {
      self: link(hrefs.api(`${staffMember}/recordedActivities/${record.id}`)),
      staffMember: link(hrefs.api(staffMember)),
      operation: record.operationId ? link(hrefs.api(`${OPERATIONS_PATH}/${record.operationId}`)) : undefined,
      workplace: record.workplaceId ? link(hrefs.api(`${WORKPLACES_PATH}/${record.workplaceId}`)) : undefined,
    },
  );
}
