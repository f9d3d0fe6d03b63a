-- The shift type of a shift (master data shiftTypes: first, second, night shift, a non-working
-- shift), which the v3 shift representation links and embeds (docs/resources/shifts-and-maintenance.md).
-- Checked by the service like other master data references; null: a shift of no stated type.
ALTER TABLE shifts ADD COLUMN IF NOT EXISTS shift_type_id text;
