import type { Connector } from '../../domain/connectors.ts';
import { describeNetworkFailure } from '../../domain/networkFailures.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { CONNECTORS_PATH } from '../paths.ts';

/** A connector; the password is write-only and never shown. */
export function presentConnector(connector: Connector, hrefs: Hrefs): Resource {
  const { status } = connector;
  return resource(
    {
      id: connector.id,
      name: connector.name,
      type: connector.type,
      url: connector.url,
      username: connector.username,
      securityMode: connector.securityMode,
      enabled: connector.enabled,
      mappings: connector.mappings,
      status: {
        state: status.state,
        since: status.since.toISOString(),
        lastError: describeNetworkFailure(status.lastError),
        recentErrors: status.recentErrors.map((error) => ({
          at: error.at.toISOString(),
          message: describeNetworkFailure(error.message),
          repeated: error.repeated,
        })),
        lastMessageAt: status.lastMessageAt?.toISOString() ?? null,
        messagesReceived: status.messagesReceived,
        valuesApplied: status.valuesApplied,
        valuesRejected: status.valuesRejected,
      },
    },
    { self: link(hrefs.api(`${CONNECTORS_PATH}/${connector.id}`)) },
  );
}
