// Commands (docs/resources/commands.md): POST /commands and /commands/bulk execute commands of
// the v3 model at once or queue them (`async`), GET /commands/{id} shows one with its result, and
// POST /activities executes a command given as an activity. A client sees only its own commands.
import type { TSchema } from 'typebox';
import { Type } from 'typebox';
import { type Command, type CommandData, SUCCESS } from '../../domain/commands.ts';
import { AppError, type ErrorCode, type MessageParams } from '../../domain/errors.ts';
import * as service from '../../services/commandService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import type { Resource } from '../hal.ts';
import { ACTIVITIES_PATH, COMMANDS_PATH } from '../paths.ts';
import { presentCommand } from '../presenters/commandPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import {
  ActivityBody,
  AsyncQuery,
  BulkCommandsBody,
  COMMAND_BODIES,
  CommandBody,
  CommandSchema,
} from '../schemas/commandSchemas.ts';
import { checkBody } from '../validation.ts';

const tags = ['commands'];

const BulkAnswer = Type.Object({
  _links: Type.Object({}, { additionalProperties: true }),
  _embedded: Type.Object({ commands: Type.Array(CommandSchema) }),
});

const systemTime = { now: () => new Date() };

export function registerCommands(api: Api, { db, clock = systemTime, commandRunner }: ServerDeps): void {
  const clientOf = (request: { client?: { clientId: string } | undefined }) => request.client?.clientId ?? '';
  const run = async (clientId: string, commands: CommandData[], queued: boolean): Promise<Command[]> => {
    if (!queued) return service.executeCommands(db, clientId, commands, clock);
    const stored = await service.queueCommands(db, clientId, commands, clock);
    commandRunner?.wake();
    return stored;
  };

  const commands = resourceRoutes(api, {
    path: COMMANDS_PATH,
    schema: CommandSchema,
    present: presentCommand,
  });
  commands.get({
    summary: 'One command of the caller with its result',
    load: (at) => service.getCommand(db, clientOf(at.request), at.id),
  });

  registerRoute(api, {
    method: 'POST',
    path: COMMANDS_PATH,
    tags,
    operationId: 'executeCommand',
    summary: 'Execute a command (emits COMMAND with the command type as eventName)',
    description:
      'async=true (the default): stored, answered 202 and executed in order afterwards. ' +
      'async=false: executed now, answered 201 with its resultCode. Either way GET /commands/{id} shows it.',
    querystring: AsyncQuery(true),
    body: CommandBody,
    response: { 201: CommandSchema, 202: CommandSchema },
    errors: [415],
    handler: async (request, reply) => {
      const queued = request.query.async ?? true;
      const [command] = await run(clientOf(request), [request.body], queued);
      const representation = presentCommand(command as Command, request.hrefs);
      return reply
        .code(queued ? 202 : 201)
        .header('location', representation._links.self?.href)
        .send(representation);
    },
  });

  registerRoute(api, {
    method: 'POST',
    path: `${COMMANDS_PATH}/bulk`,
    tags,
    operationId: 'executeCommands',
    summary: 'Execute up to 100 commands in order, one result each (emits COMMAND per command)',
    description:
      'Each command runs in its own transaction: a failing one is answered with its resultCode and ' +
      'does not undo the others. async=true: stored and answered 202, executed in order afterwards.',
    querystring: AsyncQuery(false),
    body: BulkCommandsBody,
    response: { 200: BulkAnswer, 202: BulkAnswer },
    errors: [415],
    handler: async (request, reply) => {
      const queued = request.query.async ?? false;
      const results = await run(clientOf(request), request.body.commands, queued);
      const answer: { _links: Resource['_links']; _embedded: { commands: Resource[] } } = {
        _links: {},
        _embedded: { commands: results.map((command) => presentCommand(command, request.hrefs)) },
      };
      return reply.code(queued ? 202 : 200).send(answer);
    },
  });

  registerRoute(api, {
    method: 'POST',
    path: ACTIVITIES_PATH,
    tags,
    operationId: 'executeActivity',
    summary: 'Execute an activity: the command its activityIdentifier names, with data as its fields',
    description:
      'relationType WORKPLACE: relationIdentifier is the workplace, the command workplaceId when data has none. ' +
      'Executed now; a refused command answers its error. Stored as a command of the caller.',
    body: ActivityBody,
    response: { 204: Type.Null() },
    errors: [415],
    handler: async (request, reply) => {
      const data = activityCommand(request.body);
      const [command] = await run(clientOf(request), [data], false);
      if (command?.resultCode !== SUCCESS) throw errorOf(command as Command);
      return reply.code(204).send();
    },
  });
}

interface Activity {
  activityIdentifier: CommandData['type'];
  relationType?: 'WORKPLACE' | 'TERMINAL' | null | undefined;
  relationIdentifier?: string | null | undefined;
  data?: Record<string, string> | undefined;
}

/** An activity as the command it names: its text values converted to the types of the command's fields. */
function activityCommand(activity: Activity): CommandData {
  if (activity.relationType === 'TERMINAL') {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'relationType',
      detail: 'this service has no shop floor terminals; relate the activity to a WORKPLACE',
    });
  }
  const schema = COMMAND_BODIES[activity.activityIdentifier] as TSchema & {
    properties: Record<string, TSchema>;
  };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(activity.data ?? {})) {
    fields[name] = fromText(value, schema.properties[name]);
  }
  if (
    activity.relationType === 'WORKPLACE' &&
    activity.relationIdentifier &&
    'workplaceId' in schema.properties
  ) {
    fields.workplaceId ??= activity.relationIdentifier;
  }
  const command = { ...fields, type: activity.activityIdentifier };
  checkBody(schema, command, 'data');
  return command;
}

/** A text value as the field's schema types it; left as text when it is no such value (the check names it). */
function fromText(value: string, schema: TSchema | undefined): unknown {
  const kinds = schema === undefined ? [] : typesOf(schema);
  if (
    (kinds.includes('number') || kinds.includes('integer')) &&
    value.trim() !== '' &&
    Number.isFinite(Number(value))
  ) {
    return Number(value);
  }
  if (kinds.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (kinds.includes('array')) return value === '' ? [] : value.split(',');
  if (kinds.includes('object')) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

function typesOf(schema: TSchema): string[] {
  const { type, anyOf } = schema as { type?: string; anyOf?: TSchema[] };
  if (anyOf) return anyOf.flatMap(typesOf);
  return type === undefined ? [] : [type];
}

/** The refusal a failed command was stored with, to answer it. */
function errorOf(command: Command): AppError {
  const { code, ...params } = command.resultDetail ?? { code: 'INTERNAL_ERROR' };
  return new AppError(code as ErrorCode, params as MessageParams);
}
