// The event log (docs/events.md): every emitted event, readable in timestamp mode so a client that
// was down can catch up, and POST /events for an application's own EXTERNAL events.
import { listEvents } from '../../db/repositories/eventRepository.ts';
import { getEvent, publishExternalEvent } from '../../services/eventService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { positionBy } from '../hal.ts';
import { EVENTS_PATH } from '../paths.ts';
import { presentEvent } from '../presenters/eventPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { EventFilters, EventSchema, PublishEventBody } from '../schemas/eventSchemas.ts';

export function registerEvents(api: Api, { db, config }: ServerDeps): void {
  const events = resourceRoutes(api, {
    path: EVENTS_PATH,
    schema: EventSchema,
    present: presentEvent,
  });
  events.list({
    summary: 'The event log, newest first (timestamp mode on recordedAt)',
    description:
      'Keep firstIdentifier and later ask paginationDirection=PREVIOUS from it to get every event recorded since.',
    position: positionBy('recordedAt'),
    filters: EventFilters,
    load: (filter, page) => listEvents(db, filter, { ...page, maxBytes: config.pageMaxBytes }),
  });
  events.get({ load: (at) => getEvent(db, at.id) });
  events.create({
    summary: 'Publish an EXTERNAL event; callbacks for EXTERNAL receive it',
    body: PublishEventBody,
    run: (body, at) =>
      publishExternalEvent(
        db,
        at.request.client?.clientId ?? '',
        {
          objectType: body.objectType ? body.objectType : 'NONE',
          objectId: body.objectId ?? null,
          eventName: body.eventName ?? null,
          data: body.data ?? {},
          timestamp: body.timestamp === undefined ? undefined : new Date(body.timestamp),
        },
        config.eventDataMaxBytes,
      ),
  });
}
