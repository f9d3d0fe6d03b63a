// Ids are UUIDs (contract 2). Path ids are opaque to clients: one that is not even a UUID is
// simply not found, and checking that here lets queries compare on the indexed uuid column.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (id: string): boolean => UUID.test(id);
