// A small in-process MQTT broker (aedes) for the zero-setup default run, so callbacks to
// mqtt://localhost:1883/external/... work on a fresh machine. MQTT 3.1.1 only.
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';

export interface EmbeddedBroker {
  port: number;
  close(): Promise<void>;
}

export async function startEmbeddedBroker(host: string, port: number): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (error) {
    broker.close();
    throw error;
  }
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
