// Workplaces and workplace groups as the API shows and takes them (docs/api.md, "Workplaces and workplace groups").
import { Type } from 'typebox';
import { WORKPLACE_GROUP_TYPES, WORKPLACE_TYPES } from '../../domain/workplaces.ts';
import {
  BodyId,
  Nullable,
  OperatingStateProperty,
  optional,
  optionalText,
  ReplaceBody,
  Resource,
} from './common.ts';

const Uuid = Type.String({ format: 'uuid' });

const ErpContextId = Type.String({ maxLength: 200, description: 'Context of the ERP system' });
const WorkplaceTypeSchema = Type.Enum([...WORKPLACE_TYPES], {
  description: 'Kept consistent with isManualWorkplace (docs/resources/workplaces.md)',
});
const GroupProperty = Nullable(
  Type.Object({
    id: Uuid,
    number: Type.String(),
    description: Nullable(Type.String()),
    type: Type.String(),
    erpContextId: Nullable(Type.String()),
  }),
);

export const GroupType = Type.Enum([...WORKPLACE_GROUP_TYPES], {
  description: 'CAPACITY_GROUP (same production procedure) or PRODUCTION_LINE (complete process)',
});

export const WorkplaceGroupSchema = Resource(
  Type.Object({
    id: Uuid,
    number: Type.String(),
    description: Nullable(Type.String()),
    type: GroupType,
    erpContextId: Nullable(Type.String()),
  }),
  'Workplace group (capacity group or production line)',
);

export const WorkplaceGroupBody = Type.Object(
  {
    id: BodyId,
    number: Type.String({ minLength: 1, maxLength: 100 }),
    description: optionalText(2000),
    type: GroupType,
    erpContextId: optional(ErpContextId),
  },
  { additionalProperties: false },
);

export const WorkplaceSchema = Resource(
  Type.Object({
    id: Uuid,
    number: Type.String(),
    description: Nullable(Type.String()),
    isManualWorkplace: Type.Boolean(),
    workplaceType: WorkplaceTypeSchema,
    erpContextId: Nullable(Type.String()),
    operatingState: OperatingStateProperty,
    capacityGroupId: Uuid,
    capacityGroup: GroupProperty,
    productionLineId: Nullable(Uuid),
    productionLine: GroupProperty,
  }),
  'Workplace (machine or manual workplace)',
);

export const RecordedOperatingStateSchema = Resource(
  Type.Object({
    id: Uuid,
    workplaceId: Uuid,
    operatingState: OperatingStateProperty,
    startDate: Type.String({ format: 'date-time' }),
    endDate: Nullable(Type.String({ format: 'date-time' })),
  }),
  'A period in one operating state',
);

const GeoCoordinatesProperty = Nullable(
  Type.Object(
    {
      latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Degrees north (negative: south)' }),
      longitude: Type.Number({ minimum: -180, maximum: 180, description: 'Degrees east (negative: west)' }),
    },
    { additionalProperties: false, description: 'Null when the location is unknown' },
  ),
);

export const WorkplaceLocationSchema = Resource(
  Type.Object({ geoCoordinates: GeoCoordinatesProperty }),
  'Where a workplace is (docs/resources/workplaces.md, "Location")',
);

/** PUT location: the coordinates, or null to clear them. */
export const WorkplaceLocationBody = Type.Object(
  { geoCoordinates: GeoCoordinatesProperty },
  { additionalProperties: false },
);

const writable = {
  number: Type.String({ minLength: 1, maxLength: 100 }),
  description: optionalText(2000),
  isManualWorkplace: Type.Optional(Type.Boolean()),
  workplaceType: Type.Optional(WorkplaceTypeSchema),
  erpContextId: optional(ErpContextId),
  capacityGroupId: Uuid,
  productionLineId: optional(Uuid),
};
export const CreateWorkplaceBody = Type.Object(
  {
    ...writable,
    operatingStateId: Type.Optional(
      Type.String({ maxLength: 100, description: 'Initial operating state (id or code); default 999' }),
    ),
  },
  { additionalProperties: false },
);
export const ReplaceWorkplaceBody = ReplaceBody(writable);

/** Query filters of the workplaces list. */
export const WorkplaceFilters = {
  workplaceGroupNumber: Type.Optional(Type.String({ maxLength: 100, description: 'Capacity group or line' })),
  workplaceNumber: Type.Optional(Type.String({ maxLength: 100 })),
  workplaceType: Type.Optional(WorkplaceTypeSchema),
  erpContextId: Type.Optional(Type.String({ maxLength: 200 })),
  workplaceGroupId: Type.Optional(Uuid),
};
