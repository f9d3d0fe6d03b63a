-- The open record of a history (end_date NULL) is closed by every change: an operating-state
-- change closes the workplace's open record, a phase change the operation's. The timelines are
-- indexed by owner and start, so finding the open record read every record of the owner, and each
-- change got slower as its history grew (bench:delivery: 1,141 then 757 changes/s on the next
-- run). These partial indexes hold one entry per owner. Not unique: a command closes the old
-- record and opens the new one in one statement (src/db/oneStatement.ts), in no set order.
-- recorded_staff_activities has had such an index since 004.
CREATE INDEX IF NOT EXISTS recorded_operating_states_open ON recorded_operating_states (workplace_id) WHERE end_date IS NULL;
CREATE INDEX IF NOT EXISTS recorded_operation_phases_open ON recorded_operation_phases (operation_id) WHERE end_date IS NULL;
