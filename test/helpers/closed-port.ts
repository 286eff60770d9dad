// Ports that nothing listens on, handed out by the system (port 0) and closed again, never guessed: one on 127.0.0.1
// for an endpoint that must be unreachable (OLLAMA_HOST) or that a test then binds itself, and one free on several
// addresses at once.
import {createServer} from 'node:net';

export async function findClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as {port: number};
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}

/**
 * A port free on every given address right now: picked by the system (port 0) on the first, then checked on the
 * others, another one tried while one of them has it taken. For a listener that binds several addresses on one port.
 */
export async function findFreePort(hosts: readonly string[]): Promise<number> {
  for (;;) {
    const servers = [];
    let port = 0;
    try {
      for (const host of hosts) {
        const server = createServer();
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, host, () => resolve());
        });
        servers.push(server);
        port = (server.address() as {port: number}).port;
      }
      return port;
    } catch {
      // Taken on another address: try another port.
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  }
}
