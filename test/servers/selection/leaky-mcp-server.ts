// A stdio MCP server (the `counter` test server) that leaves a process behind: at start it spawns a detached
// child in a session of its own, which neither the harness's close nor its process group reaches. It models a
// misbehaving MCP server whose session cannot be cleaned up. The child's pid is appended to STRATOS_TEST_LEAK_FILE
// so the test can end it.
//
//   node test/servers/selection/leaky-mcp-server.ts
import {spawn} from 'node:child_process';
import {appendFileSync} from 'node:fs';
import {join} from 'node:path';

const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], {
  detached: true,
  stdio: 'ignore',
});
child.unref();
const file = process.env.STRATOS_TEST_LEAK_FILE;
if (file !== undefined && child.pid !== undefined) appendFileSync(file, `${child.pid}\n`);

process.argv = [process.argv[0]!, join(import.meta.dirname, '..', 'mcp', 'serve.ts'), 'counter', '--stdio'];
await import('../mcp/serve.ts');
