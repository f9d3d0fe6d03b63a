import * as repository from '../../db/repositories/connectorRepository.ts';
import * as service from '../../services/connectorService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { CONNECTORS_PATH } from '../paths.ts';
import { presentConnector } from '../presenters/connectorPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { ConnectorBody, ConnectorSchema, connectorInput } from '../schemas/connectorSchemas.ts';

export function registerConnectors(api: Api, { db, config }: ServerDeps): void {
  const connectors = resourceRoutes(api, {
    path: CONNECTORS_PATH,
    schema: ConnectorSchema,
    present: presentConnector,
  });
  connectors.list({
    summary: 'List connectors with their status',
    load: (_filter, page) => repository.listConnectors(db, page),
  });
  connectors.get({ summary: 'One connector with its status', load: (at) => service.getConnector(db, at.id) });
  connectors.create({
    summary: 'Create a connector (it connects within seconds when enabled)',
    description: 'A mapping that names a missing device, tag, workplace or operating state is 400 naming it.',
    body: ConnectorBody,
    run: (body) => service.createConnector(db, connectorInput(body), config),
  });
  connectors.replace({
    summary: 'Replace a connector (its instance reconnects with the new configuration)',
    description: 'An absent password keeps the stored one; null removes it.',
    body: ConnectorBody,
    // A running connector's counters move with every message (docs/resources/connectors.md).
    changingOnTheirOwn: ['status'],
    run: (body, at) => service.replaceConnector(db, at.id, connectorInput(body), config),
  });
  connectors.remove({
    summary: 'Delete a connector (its instance disconnects)',
    run: (at) => service.deleteConnector(db, at.id),
  });
}
