-- Materials are the ones production orders and operations name (docs/resources/masterData.md,
-- "Materials"); a material's id is the UUID made of the MD5 of its number, so it stays the same
-- for as long as anything names that number. These indexes serve the list (distinct numbers)
-- and the lookup of one material by its id.
CREATE INDEX IF NOT EXISTS operations_material ON operations (material_number);
CREATE INDEX IF NOT EXISTS production_orders_material_id
  ON production_orders ((md5(material_number)::uuid)) WHERE material_number IS NOT NULL;
CREATE INDEX IF NOT EXISTS operations_material_id
  ON operations ((md5(material_number)::uuid)) WHERE material_number IS NOT NULL;
