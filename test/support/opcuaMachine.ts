// A simulated machine behind a real node-opcua server, started inside the test: a state text, a
// piece counter and a temperature under ns=1, changed by the test. stop() and start() restart the
// server on the same port (its certificate stays in node-opcua's default PKI folder); start() may
// offer only some security modes (a server reconfigured to SignAndEncrypt only).
import { DataType, MessageSecurityMode, SecurityPolicy, Variant } from 'node-opcua-client';
import { OPCUAServer } from 'node-opcua-server';
import { freePort } from './faults.ts';

export const MACHINE_NODES = {
  state: 'ns=1;s=Machine.State',
  pieces: 'ns=1;s=Machine.PieceCounter',
  temperature: 'ns=1;s=Machine.Temperature',
};

export class SimulatedMachine {
  readonly port: number;
  #server: OPCUAServer | undefined;
  #variables = new Map<string, { setValueFromSource(value: Variant): void }>();
  #values: { state: string; pieces: number; temperature: number } = {
    state: 'STOP',
    pieces: 0,
    temperature: 20,
  };

  private constructor(port: number) {
    this.port = port;
  }

  static async start(): Promise<SimulatedMachine> {
    const machine = new SimulatedMachine(await freePort());
    await machine.start();
    return machine;
  }

  get url(): string {
    return `opc.tcp://127.0.0.1:${this.port}/UA/Machine`;
  }

  /** Starts the server; `secureOnly` offers SignAndEncrypt (Basic256Sha256) and nothing else. */
  async start(options: { secureOnly?: boolean } = {}): Promise<void> {
    if (this.#server) return;
    const server = new OPCUAServer({
      port: this.port,
      hostname: '127.0.0.1',
      ...(options.secureOnly
        ? {
            securityModes: [MessageSecurityMode.SignAndEncrypt],
            securityPolicies: [SecurityPolicy.Basic256Sha256],
            allowAnonymous: true,
          }
        : {}),
      resourcePath: '/UA/Machine',
      buildInfo: { productName: 'SimulatedMachine', buildNumber: '1', buildDate: new Date() },
    });
    await server.initialize();
    const addressSpace = server.engine.addressSpace;
    if (!addressSpace) throw new Error('no address space');
    const namespace = addressSpace.getOwnNamespace();
    const machine = namespace.addObject({
      organizedBy: addressSpace.rootFolder.objects,
      browseName: 'Machine',
    });
    const add = (key: string, nodeId: string, dataType: DataType, value: unknown) => {
      const variable = namespace.addVariable({
        componentOf: machine,
        nodeId: nodeId.replace('ns=1;', ''),
        browseName: key,
        dataType: DataType[dataType],
      });
      variable.setValueFromSource(new Variant({ dataType, value }));
      this.#variables.set(key, variable);
    };
    add('state', MACHINE_NODES.state, DataType.String, this.#values.state);
    add('pieces', MACHINE_NODES.pieces, DataType.UInt32, this.#values.pieces);
    add('temperature', MACHINE_NODES.temperature, DataType.Double, this.#values.temperature);
    await server.start();
    this.#server = server;
  }

  set(values: Partial<{ state: string; pieces: number; temperature: number }>): void {
    Object.assign(this.#values, values);
    const types = { state: DataType.String, pieces: DataType.UInt32, temperature: DataType.Double };
    for (const [key, value] of Object.entries(values)) {
      this.#variables
        .get(key)
        ?.setValueFromSource(new Variant({ dataType: types[key as keyof typeof types], value }));
    }
  }

  /** Shuts the server down (clients see the connection go). */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#variables.clear();
    await server?.shutdown(0);
  }

  async close(): Promise<void> {
    await this.stop();
  }
}
