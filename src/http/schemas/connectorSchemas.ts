// Connectors as the API shows and takes them (docs/resources/connectors.md).
import { type Static, Type } from 'typebox';
import {
  CONNECTOR_STATES,
  CONNECTOR_TYPES,
  type ConnectorInput,
  MAX_MAPPINGS,
  type Mapping,
  SECURITY_MODES,
} from '../../domain/connectors.ts';
import { QUANTITY_TYPES } from '../../domain/outputQuantities.ts';
import { BodyId, Nullable, optionalText, Resource } from './common.ts';

const Uuid = Type.String({ format: 'uuid' });
const DateTime = Type.String({ format: 'date-time' });
const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

const MqttSource = Type.Object(
  {
    topic: Text(1000, 'MQTT: a topic filter (+ and # allowed)'),
    valuePath: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'MQTT: JSON pointer to the value; absent: the whole payload',
      }),
    ),
    timestampPath: Type.Optional(
      Type.String({ maxLength: 500, description: 'MQTT: JSON pointer to the time' }),
    ),
  },
  { additionalProperties: false },
);
const SparkplugSource = Type.Object(
  {
    groupId: Text(200, 'Sparkplug B group'),
    edgeNodeId: Text(200),
    deviceId: Type.Optional(Text(200, 'Absent: a metric of the edge node itself')),
    metric: Text(500),
  },
  { additionalProperties: false },
);
const OpcUaSource = Type.Object(
  {
    nodeId: Text(500, 'OPC UA node id, e.g. ns=1;s=Machine.State'),
    samplingIntervalMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
  },
  { additionalProperties: false },
);
const Source = Type.Union([MqttSource, SparkplugSource, OpcUaSource], {
  description:
    'MQTT {topic, valuePath?, timestampPath?}, Sparkplug B {groupId, edgeNodeId, deviceId?, metric}, OPC UA {nodeId, samplingIntervalMs?}',
});

const Target = Type.Union([
  Type.Object(
    { kind: Type.Literal('DEVICE_SAMPLE'), deviceId: Uuid, tag: Text(100, 'A tag the device records') },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('OPERATING_STATE'),
      workplaceId: Uuid,
      values: Type.Record(Type.String({ maxLength: 200 }), Text(100), {
        maxProperties: 1000,
        description: 'Source value (as text) -> operating state code or id',
      }),
      otherwise: Type.Optional(Text(100, 'The state for any other value; absent: other values are rejected')),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('OUTPUT_QUANTITY'),
      workplaceId: Uuid,
      quantityType: Type.Enum([...QUANTITY_TYPES]),
    },
    { additionalProperties: false },
  ),
]);

const MappingBody = Type.Object({ source: Source, target: Target }, { additionalProperties: false });

export const ConnectorBody = Type.Object(
  {
    id: BodyId,
    name: Text(200),
    type: Type.Enum([...CONNECTOR_TYPES]),
    url: Text(2000, 'mqtt:// or mqtts://host:port (MQTT, SPARKPLUG_B), opc.tcp://host:port/path (OPC_UA)'),
    username: optionalText(200),
    password: Type.Optional(
      Nullable(
        Type.String({ maxLength: 500, description: 'Write-only; on replace, absent keeps the stored one' }),
      ),
    ),
    securityMode: Type.Optional(Type.Enum([...SECURITY_MODES], { description: 'OPC UA only; default None' })),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
    mappings: Type.Array(MappingBody, { maxItems: MAX_MAPPINGS }),
  },
  { additionalProperties: false },
);

export function connectorInput(body: Static<typeof ConnectorBody>): ConnectorInput {
  return {
    name: body.name,
    type: body.type,
    url: body.url,
    username: body.username ?? null,
    password: body.password,
    securityMode: body.securityMode ?? 'None',
    enabled: body.enabled ?? true,
    mappings: body.mappings as Mapping[],
  };
}

export const ConnectorSchema = Resource(
  Type.Object({
    id: Uuid,
    name: Type.String(),
    type: Type.Enum([...CONNECTOR_TYPES]),
    url: Type.String(),
    username: Nullable(Type.String()),
    securityMode: Type.Enum([...SECURITY_MODES]),
    enabled: Type.Boolean(),
    mappings: Type.Array(Type.Object({ source: Type.Unknown(), target: Type.Unknown() })),
    status: Type.Object({
      state: Type.Enum([...CONNECTOR_STATES]),
      since: DateTime,
      lastError: Nullable(Type.String()),
      recentErrors: Type.Array(
        Type.Object({ at: DateTime, message: Type.String(), repeated: Type.Integer({ minimum: 1 }) }),
      ),
      lastMessageAt: Nullable(DateTime),
      messagesReceived: Type.Integer(),
      valuesApplied: Type.Integer(),
      valuesRejected: Type.Integer(),
    }),
  }),
  'A connection the bridge opens to a machine or broker, and how its values change the plant image',
);
