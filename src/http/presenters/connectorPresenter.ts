import type { Connector } from '../../domain/connectors.ts';
import { describeNetworkFailure, hostOf } from '../../domain/networkFailures.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { CONNECTORS_PATH } from '../paths.ts';

/** A connector; the password is write-only and never shown. */
export function presentConnector(connector: Connector, hrefs: Hrefs): Resource {
  const { status } = connector;
  // Errors may show the host the client gave in the URL, never addresses it resolved to.
  const named = hostOf(connector.url);
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
        lastError: describeNetworkFailure(status.lastError, named),
        recentErrors: status.recentErrors.map((error) => ({
          at: error.at.toISOString(),
          message: describeNetworkFailure(error.message, named),
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
