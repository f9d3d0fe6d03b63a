-- A staff member's identification number (the badge or card number a terminal reads), which the
-- real API shows beside the staff number (docs/resources/staff-members.md). Optional: null, none.
ALTER TABLE staff_members ADD COLUMN IF NOT EXISTS identification_number text;
