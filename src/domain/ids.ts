// Ids are canonical lower-case UUIDs (docs/api.md, "Representations (HAL)"). Path ids are opaque strings: one that is not
// exactly such a UUID (upper case included) is simply not found, and checking that here lets
// queries compare on the indexed uuid column.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isUuid = (id: string): boolean => UUID.test(id);
