// A 127.0.0.1 port that nothing listens on: one the system handed out (port 0) and that was closed again, for an
// endpoint that must be unreachable (OLLAMA_HOST) without guessing a port number.
import {createServer} from 'node:net';

export async function findClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as {port: number};
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return port;
}
