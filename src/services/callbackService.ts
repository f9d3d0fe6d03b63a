import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { OffsetPage, OffsetRequest } from '../db/paging.ts';
import * as callbacks from '../db/repositories/callbackRepository.ts';
import { type Callback, type CallbackRequest, toRegistration } from '../domain/callbacks.ts';
import { notFound } from '../domain/errors.ts';
import { callbackPolicy } from '../net/addressPolicy.ts';
import { found } from './writes.ts';

type CallbackSettings = Pick<
  Config,
  'callbackMqttPort' | 'callbackAllowedNetworks' | 'callbackDeniedNetworks' | 'callbackDenyLoopback'
>;

export async function registerCallback(
  db: Database,
  clientId: string,
  request: CallbackRequest,
  settings: CallbackSettings,
  /** Where the registering request reached the service (Hrefs.root). */
  linkRoot: string,
): Promise<Callback> {
  const callback: Callback = {
    // A denied address literal is refused here (400 naming url), host names at each connection.
    ...toRegistration(request, settings.callbackMqttPort, callbackPolicy(settings)),
    id: uuidv7(),
    clientId,
    creationDate: new Date(),
    lastTriggeredDate: null,
    lastSuccessfulDate: null,
    failedAttempts: 0,
    discardedNotifications: 0,
    // A request without a usable Host gives a relative root: nothing a receiver could follow.
    linkRoot: /^https?:\/\//.test(linkRoot) ? linkRoot : null,
  };
  await callbacks.insertCallback(db, callback);
  return callback;
}

export async function getCallback(db: Database, clientId: string, id: string): Promise<Callback> {
  return found(callbacks.findCallback(db, clientId, id), 'callback', id);
}

export const listCallbacks = (
  db: Database,
  clientId: string,
  page: OffsetRequest,
): Promise<OffsetPage<Callback>> => callbacks.listCallbacks(db, clientId, page);

/** Deleting the registration deletes its pending notifications too: nothing more is delivered. */
export async function deleteCallback(db: Database, clientId: string, id: string): Promise<void> {
  if (!(await callbacks.deleteCallback(db, clientId, id))) throw notFound('callback', id);
}
