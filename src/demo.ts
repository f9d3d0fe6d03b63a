// The service side of the demo (docs/demo.md, "First start"): an OAuth client of its own and the
// typed API client of the app's own listening server, handed to the demo run
// (src/simulator/demo.ts), which then talks to the service over loopback HTTP only.
import { type BridgeClient, createBridgeClient } from '../clients/typescript/src/index.ts';
import type { App } from './app.ts';
import { addClient } from './auth/clients.ts';
import type { Config } from './config.ts';
import { deleteClient } from './db/repositories/clientRepository.ts';
import { type Demo, type DemoOutput, type DemoPlan, runDemo } from './simulator/demo.ts';

/** The app's listening TCP address (host in URL form, `[...]` for IPv6), and whether it is a wildcard. */
function listeningAddress(app: App): { host: string; port: number; wildcard: boolean } {
  const address = app.server.addresses()[0];
  if (!address || typeof address === 'string') throw new Error('the server is not listening on TCP');
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { host, port: address.port, wildcard };
}

/**
 * The typed API client of the app's own server (listening), with an OAuth client of its own;
 * remove() deletes that. The service's hrefs start with BRIDGE_PUBLIC_URL when it is set: that is
 * the client's link root, so links are followed over loopback and the token never leaves it.
 */
export async function loopbackApi(
  app: App,
  config: Config,
  name: string,
): Promise<{ api: BridgeClient; remove(): Promise<void> }> {
  if (config.tlsCertFile)
    throw new Error('the demo and loopback runs need plain HTTP (BRIDGE_TLS_CERT_FILE is set)');
  const { host, port, wildcard } = listeningAddress(app);
  // A wildcard address is reached over loopback.
  const loopback = !wildcard ? host : host === '[::]' ? '[::1]' : '127.0.0.1';
  const client = await addClient(app.db, { name, scopes: ['read', 'write'] });
  const api = createBridgeClient({
    baseUrl: `http://${loopback}:${port}${config.basePath}`,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    linkRoot: config.publicUrl,
  });
  return { api, remove: async () => void (await deleteClient(app.db, client.clientId)) };
}

/** Where the dashboard of a listening app is: under BRIDGE_PUBLIC_URL when set, else at its address. */
export function dashboardUrl(app: App, config: Config): string {
  if (config.publicUrl !== undefined) return `${config.publicUrl}/`;
  const { host, port, wildcard } = listeningAddress(app);
  const scheme = config.tlsCertFile ? 'https' : 'http';
  return `${scheme}://${wildcard ? 'localhost' : host}:${port}${config.basePath}/`;
}

/** Starts the demo in the background of a listening app; its failures are logged, never fatal. */
export function startDemo(app: App, config: Config, plan: DemoPlan, out: DemoOutput): Demo {
  return runDemo({
    plan,
    demo: config.demo,
    connect: () => loopbackApi(app, config, 'demo simulator'),
    dashboard: dashboardUrl(app, config),
    log: app.server.log,
    out,
  });
}
