// OAuth clients as the API shows and takes them (docs/resources/clients.md). The secret is only
// ever in the answer to the create, and stored only as a hash.
import { Type } from 'typebox';
import { SCOPES } from '../../config.ts';
import { Resource } from './common.ts';

const ScopeList = Type.Array(Type.Enum([...SCOPES]), {
  minItems: 1,
  maxItems: SCOPES.length,
  uniqueItems: true,
});

export const ClientSchema = Resource(
  Type.Object({
    id: Type.String({ description: 'The client_id' }),
    name: Type.String(),
    scopes: ScopeList,
    createdAt: Type.String({ format: 'date-time' }),
    clientSecret: Type.Optional(
      Type.String({ description: 'Only in the answer to the create: the one time the secret is shown' }),
    ),
  }),
  'An OAuth client that may get access tokens (client credentials)',
);

export const ClientBody = Type.Object(
  {
    id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[A-Za-z0-9._~-]+$',
        description: 'The client_id to use; absent: a new UUID',
      }),
    ),
    name: Type.Optional(Type.String({ maxLength: 200, description: 'What the client is for' })),
    scopes: ScopeList,
  },
  { additionalProperties: false },
);
