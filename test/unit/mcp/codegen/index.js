// Lets `node --test test/unit/mcp/codegen/` work: Node 24 resolves a directory argument to its index.js instead
// of searching it. The guard keeps a glob or default `node --test` run from loading every test file twice.
import {readdirSync} from 'node:fs';
import {resolve} from 'node:path';

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.dirname) {
  for (const file of readdirSync(import.meta.dirname)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()) {
    await import(`./${file}`);
  }
}
