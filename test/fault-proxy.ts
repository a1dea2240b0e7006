/**
 * A TCP proxy in front of a real server (Neo4j, Redis) that a test can cut:
 * every open connection is reset and new ones are refused, as when the server
 * dies, until it is restored on the same port. The shared servers keep running
 * for everyone else; only this test's app loses them.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface FaultProxy {
  readonly port: number;
  /** Resets every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        track(client);
        track(upstream);
        client.pipe(upstream);
        upstream.pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  let server: Server | null = await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = async () => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.resetAndDestroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    port,
    cut: stop,
    async restore() {
      server ??= await listen(port);
    },
    close: stop,
  };
}
