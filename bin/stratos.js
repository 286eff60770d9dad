#!/usr/bin/env node
// Checks the Node.js version before loading anything that needs Node 24, then runs the CLI.

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  const message = `Stratos needs Node.js 24 or newer; this is Node.js ${process.versions.node}. Install Node.js 24 and run the command again.`;
  if (process.argv.includes('--json')) {
    process.stdout.write(
      `${JSON.stringify({ok: false, error: {code: 'STRATOS_CLI_NODE_VERSION', message}, warnings: []})}\n`,
    );
  } else {
    process.stderr.write(`error STRATOS_CLI_NODE_VERSION: ${message}\n`);
  }
  process.exit(1);
}
// Node's on-disk compile cache spares re-parsing Stratos, zod and the workflow's modules on every command.
// process.getBuiltinModule, not an import: the module needs no ESM facade, which costs start-up time.
process.getBuiltinModule('node:module').enableCompileCache?.();
const {runCli} = await import('../dist/bundle/cli.js');
await runCli(process.argv.slice(2));
