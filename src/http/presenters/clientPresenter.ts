import type { OAuthClient } from '../../db/repositories/clientRepository.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { CLIENTS_PATH } from '../paths.ts';

/** A client without its secret hash; `clientSecret` only when it was just created. */
export function presentClient(
  client: Pick<OAuthClient, 'clientId' | 'name' | 'scopes' | 'createdAt'>,
  hrefs: Hrefs,
  clientSecret?: string,
): Resource {
  return resource(
    {
      id: client.clientId,
      name: client.name,
      scopes: client.scopes,
      createdAt: client.createdAt.toISOString(),
      ...(clientSecret === undefined ? {} : { clientSecret }),
    },
    { self: link(hrefs.api(`${CLIENTS_PATH}/${encodeURIComponent(client.clientId)}`)) },
  );
}
