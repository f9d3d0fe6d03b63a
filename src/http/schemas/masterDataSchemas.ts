import { Type } from 'typebox';
import type { MasterDataKindRow } from '../masterDataKinds.ts';
import { Nullable, Resource } from './common.ts';

const Text = Nullable(Type.String());

/** An entry of a kind kept in the database: the properties its row in MASTER_DATA_KINDS gives it. */
export function StoredEntrySchema(kind: MasterDataKindRow) {
  const attributes = Object.entries(kind.attributes).map(([name, schema]) => [name, Nullable(schema)]);
  return Resource(
    Type.Object({
      id: Type.String(),
      ...Object.fromEntries(Object.keys(kind.texts).map((property) => [property, Text])),
      ...(kind.code ? { code: Text } : {}),
      ...(kind.color ? { color: Text } : {}),
      ...Object.fromEntries(attributes),
      ...(kind.reference ? { [kind.reference.property]: Text } : {}),
    }),
    `${kind.singular} (localized)`,
  );
}

export const LiteralSchema = Resource(
  Type.Object({
    id: Type.String(),
    translations: Type.Array(Type.Object({ language: Type.String(), translation: Type.String() })),
  }),
  'Literal: a text in every language it has',
);

export const MaterialSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    number: Type.String(),
    description: Text,
    type: Text,
  }),
  'Material named by production orders and operations',
);
