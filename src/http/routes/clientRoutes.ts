// OAuth clients through the API (docs/resources/clients.md): list, create (the secret is in that
// answer only), one, delete. Every route needs the `admin` scope, which only the first client (or
// one the bootstrap settings give it) holds: managing clients never needs the service stopped.
import { addClient, removeClient } from '../../auth/clients.ts';
import { isUniqueViolation } from '../../db/database.ts';
import * as repository from '../../db/repositories/clientRepository.ts';
import { AppError, notFound } from '../../domain/errors.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { CLIENTS_PATH } from '../paths.ts';
import { presentClient } from '../presenters/clientPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { ClientBody, ClientSchema } from '../schemas/clientSchemas.ts';

const scope = 'admin';

export function registerClients(api: Api, { db }: ServerDeps): void {
  const clients = resourceRoutes(api, {
    path: CLIENTS_PATH,
    schema: ClientSchema,
    // Its third parameter is the secret shown once on creation, not whether the caller may write.
    present: (client: repository.OAuthClient, hrefs) => presentClient(client, hrefs),
  });
  clients.list({
    summary: 'List OAuth clients (never their secrets)',
    scope,
    load: (_filter, page) => repository.listClientsPage(db, page),
  });
  clients.get({
    summary: 'One OAuth client',
    scope,
    load: async (at) => (await repository.findClient(db, at.id)) ?? Promise.reject(notFound('client', at.id)),
  });
  clients.create({
    summary: 'Create an OAuth client; the answer holds its secret, the only time it is shown',
    description: 'The secret is stored only as a hash. An `id` already in use is 400 ALREADY_EXISTS.',
    scope,
    body: ClientBody,
    chosenId: true,
    run: async (body) => {
      try {
        const created = await addClient(db, { clientId: body.id, name: body.name, scopes: body.scopes });
        return { ...created, name: body.name ?? '', createdAt: new Date() };
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('ALREADY_EXISTS', { field: 'id', value: body.id ?? '' });
        throw error;
      }
    },
    present: async (created, request) => {
      // The stored row gives the creation time as the database keeps it.
      const stored = await repository.findClient(db, created.clientId);
      return presentClient(stored ?? created, request.hrefs, created.clientSecret);
    },
  });
  clients.remove({
    summary: 'Delete an OAuth client; its tokens stop working within the recheck interval',
    description: 'A client cannot delete itself (400): that would leave nobody to manage clients.',
    scope,
    run: async (at) => {
      if (at.request.client?.clientId === at.id) {
        throw new AppError('BAD_REQUEST', { detail: 'a client cannot delete itself' });
      }
      if (!(await removeClient(db, at.id))) throw notFound('client', at.id);
    },
  });
}
