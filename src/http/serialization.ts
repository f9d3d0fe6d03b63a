// Response serializers: fast-json-stringify, exactly as Fastify's default compiler uses it, but
// built on a route's first answer instead of at start-up, and shared by every app of the
// process. A service then starts without compiling the response schemas of routes it may never
// answer (about a second of start-up), and a process that builds several apps (the tests, the
// benchmarks) compiles each schema once. test/api/schemaCompilation.test.ts compiles them all, so a
// schema that cannot compile still fails before it ships.
import fastJsonStringify from 'fast-json-stringify';
import { compileLater, type Deferred } from './compileLater.ts';
import { nullableForSerializing } from './serializationSchema.ts';

type Serialize = (data: unknown) => string;

/** Fastify's `schemaController.compilersFactory.buildSerializer`. */
export function buildSerializer(
  externalSchemas?: unknown,
  options?: fastJsonStringify.Options,
): (route: { schema?: unknown }) => Serialize {
  return ({ schema }) => {
    const { $id } = schema as { $id?: string };
    // As Fastify's default: a schema that is itself one of the shared ones is not passed twice.
    const shared = { ...(externalSchemas as Record<string, unknown> | undefined) };
    if ($id !== undefined) delete shared[$id];
    const serialize: Deferred<Serialize> = compileLater(['serializer', schema, shared, options], () =>
      fastJsonStringify(nullableForSerializing(schema) as fastJsonStringify.Schema, {
        ...options,
        schema: Object.fromEntries(
          Object.entries(shared).map(([id, external]) => [id, nullableForSerializing(external)]),
        ) as Record<string, fastJsonStringify.Schema>,
      }),
    );
    return (data) => serialize()(data);
  };
}
