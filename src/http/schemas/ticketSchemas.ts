// Tickets, their activities, remarks and attachments as the API shows and takes them
// (docs/resources/tickets.md), with the property names of the recorded FORCE Bridge responses.
import { type Static, Type } from 'typebox';
import { TICKET_PRIORITIES, type TicketActivityInput, type TicketInput } from '../../domain/tickets.ts';
import {
  absentAsNull,
  DateTime,
  Nullable,
  optional,
  optionalText,
  ReplaceBody,
  Resource,
  Uuid,
  withDates,
} from './common.ts';
import { WorkplaceReference } from './operationSchemas.ts';

const Id = optionalText(100);

export const TicketSchema = Resource(
  Type.Object({
    id: Uuid,
    number: Type.String({ description: 'Running number the service gives' }),
    title: Type.String(),
    description: Nullable(Type.String()),
    rootCause: Nullable(Type.String()),
    priority: Type.Enum([...TICKET_PRIORITIES]),
    creationDate: DateTime,
    editor: Nullable(Type.String()),
    ticketStateId: Type.String({ description: 'masterData/ticketStates' }),
    ticketClassId: Nullable(Type.String({ description: 'masterData/ticketClasses' })),
    operationId: Nullable(Uuid),
    materialNumber: Nullable(Type.String({ description: 'The number of `material`, as a write names it' })),
    material: Nullable(
      Type.Object({
        number: Type.String(),
        description: Nullable(Type.String()),
        type: Type.Null({ description: 'Not recorded by the plant' }),
      }),
    ),
    workplaceId: Nullable(
      Type.String({ format: 'uuid', description: 'The id of `workplace`, as a write names it' }),
    ),
    workplace: Nullable(WorkplaceReference),
    shiftId: Nullable(Uuid),
  }),
  'A ticket: an issue raised at the plant',
);

const ticketWritable = {
  title: Type.String({ minLength: 1, maxLength: 500 }),
  description: optionalText(4000),
  rootCause: optionalText(4000),
  priority: Type.Enum([...TICKET_PRIORITIES]),
  editor: optionalText(200),
  ticketStateId: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'A ticket state; a new ticket without one is NEW, a replaced one keeps its state',
    }),
  ),
  ticketClassId: Id,
  operationId: Id,
  materialNumber: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'A material an order or operation produces' })),
  ),
  workplaceId: Id,
  shiftId: Id,
};
export const CreateTicketBody = Type.Object(ticketWritable, { additionalProperties: false });
export const ReplaceTicketBody = ReplaceBody(ticketWritable);

export const ticketInput = (body: Static<typeof CreateTicketBody>): TicketInput =>
  absentAsNull(CreateTicketBody, body);

const DateFilter = (description: string) => Type.Optional(Type.String({ format: 'date-time', description }));
const CreationFilters = {
  creationDateFrom: DateFilter('Created at or after'),
  creationDateTo: DateFilter('Created before'),
};
/** A query with its creation dates as Dates. */
export const creationFilter = <
  Q extends { creationDateFrom?: string | undefined; creationDateTo?: string | undefined },
>(
  query: Q,
) => withDates(query, 'creationDateFrom', 'creationDateTo');
const FilterText = Type.Optional(Type.String({ maxLength: 500 }));

export const TicketFilters = {
  workplaceNumber: FilterText,
  workplaceId: Type.Optional(Type.String({ maxLength: 100 })),
  ticketTitle: FilterText,
  ticketNumber: Type.Optional(Type.String({ maxLength: 30 })),
  ...CreationFilters,
  operationId: Type.Optional(Type.String({ maxLength: 100 })),
  materialNumber: FilterText,
  ticketPriority: Type.Optional(Type.Enum([...TICKET_PRIORITIES])),
  ticketStateId: Type.Optional(
    Type.String({ maxLength: 200, description: 'A ticket state, or several separated by commas' }),
  ),
  ticketClassId: Type.Optional(Type.String({ maxLength: 100 })),
};

export const ticketFilter = (query: Static<ReturnType<typeof Type.Object<typeof TicketFilters>>>) =>
  creationFilter(query);

export const ActivitySchema = Resource(
  Type.Object({
    id: Uuid,
    title: Type.String(),
    description: Nullable(Type.String()),
    editor: Nullable(Type.String()),
    dueDate: Nullable(DateTime),
    ticketActivityStateId: Type.String({ description: 'masterData/ticketActivityStates' }),
  }),
  'An activity of a ticket: a step to resolve it',
);

const activityWritable = {
  title: Type.String({ minLength: 1, maxLength: 500 }),
  description: optionalText(4000),
  editor: optionalText(200),
  dueDate: optional(DateTime),
  ticketActivityStateId: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'A new activity without one is NEW, a replaced one keeps its state',
    }),
  ),
};
export const CreateActivityBody = Type.Object(activityWritable, { additionalProperties: false });
export const ReplaceActivityBody = ReplaceBody(activityWritable);

export const activityInput = (
  body: Static<typeof CreateActivityBody>,
): TicketActivityInput & { ticketActivityStateId: string | null } =>
  withDates(absentAsNull(CreateActivityBody, body), 'dueDate');

export const ActivityFilters = {
  activityTitle: FilterText,
  activityEditor: FilterText,
  dueDateFrom: DateFilter('Due at or after'),
  dueDateTo: DateFilter('Due before'),
  ticketActivityStateId: Type.Optional(Type.String({ maxLength: 100 })),
};

export const activityFilter = (query: Static<ReturnType<typeof Type.Object<typeof ActivityFilters>>>) =>
  withDates(query, 'dueDateFrom', 'dueDateTo');

export const RemarkSchema = Resource(
  Type.Object({
    id: Uuid,
    remark: Type.String(),
    editor: Nullable(Type.String()),
    creationDate: DateTime,
  }),
  'A remark on an activity of a ticket',
);

export const CreateRemarkBody = Type.Object(
  { remark: Type.String({ minLength: 1, maxLength: 4000 }), editor: optionalText(200) },
  { additionalProperties: false },
);

export const RemarkFilters = { activityEditor: FilterText, ...CreationFilters };

export const AttachmentSchema = Resource(
  Type.Object({
    id: Uuid,
    name: Nullable(Type.String({ description: 'The uploaded file name; null until the first upload' })),
    editor: Nullable(Type.String()),
    description: Type.String(),
    creationDate: DateTime,
    mimeType: Nullable(Type.String({ description: 'The uploaded media type; null until the first upload' })),
    size: Type.Integer({ description: 'Bytes' }),
  }),
  'A file attached to a ticket or to an activity of it',
);

export const CreateAttachmentBody = Type.Object(
  { description: Type.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);

export const AttachmentFilters = {
  attachmentName: Type.Optional(Type.String({ maxLength: 255 })),
  ...CreationFilters,
};

/** The query of an upload: the SDK sends the media type and the editor beside the file part. */
export const UploadQuery = Type.Object(
  {
    mimeType: Type.Optional(
      Type.String({ maxLength: 1000, description: 'The media type; default: the part or body Content-Type' }),
    ),
    editor: Type.Optional(Type.String({ maxLength: 200 })),
    name: Type.Optional(
      Type.String({ maxLength: 1000, description: 'The file name of a raw (not multipart) upload' }),
    ),
  },
  { additionalProperties: false },
);
