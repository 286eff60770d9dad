// Checks the dependency direction of ARCHITECTURE.md: every relative import in src/ must go to a layer the
// importing layer may depend on. Prints each violation with file and line; exits 1 when there is one.
import {readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve, sep} from 'node:path';

const src = resolve(import.meta.dirname, '..', 'src');

// Layer of a file: its first folder under src/ (mcp has sub-layers). Files directly under src/ are entries.
function layerOf(file: string): string {
  const parts = relative(src, file).split(sep);
  if (parts.length === 1) return 'entry';
  if (parts[0] === 'mcp' && parts.length > 2) return `mcp/${parts[1]}`;
  return parts[0]!;
}

const base = ['internal', 'errors'];
const leaf = [...base, 'manifest', 'contract', 'config', 'telemetry', 'mcp/credentials'];
const mcp = [...leaf, 'mcp', 'mcp/client', 'mcp/codegen', 'mcp/auth'];
const allowed: Record<string, string[]> = {
  internal: ['internal'],
  errors: ['errors'],
  manifest: base.concat('manifest'),
  contract: base.concat('contract'),
  config: base.concat('config'),
  telemetry: base.concat('telemetry'),
  'mcp/credentials': base.concat('mcp/credentials'),
  discovery: [...base, 'manifest', 'discovery'],
  'mcp/codegen': [...base, 'config', 'telemetry', 'mcp/codegen'],
  'mcp/client': [...mcp, 'runtime-context'],
  'mcp/auth': [...mcp, 'runtime-context'],
  mcp: [...mcp, 'runtime-context'],
  agents: [...mcp, 'agents', 'runtime-context'],
  decision: [...mcp, 'decision', 'runtime-context'],
  worktrees: [...mcp, 'worktrees', 'runtime-context'],
  providers: [...mcp, 'providers', 'runtime-context'],
  skill: [...base, 'skill'],
  build: [...leaf, 'discovery', 'build', 'mcp/codegen', 'mcp/client', 'mcp/auth', 'mcp'],
  runtime: ['*'],
  api: ['*'],
  cli: ['api', 'cli', 'errors', 'internal', 'build-types'],
  entry: ['*'],
};

// Context accessors that lower layers may read (ARCHITECTURE.md: "runtime's context accessors").
const runtimeContext = new Set(['runtime/execution-context.ts']);

function* walk(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, {withFileTypes: true})) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const importPattern =
  /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
const violations: string[] = [];
for (const file of walk(src)) {
  const from = layerOf(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2]!;
    const target = resolve(dirname(file), specifier);
    if (!target.startsWith(src)) continue;
    const to = layerOf(target);
    const rules = allowed[from] ?? [];
    if (from === 'entry' || to === from || rules.includes('*') || rules.includes(to)) continue;
    if (rules.includes('runtime-context') && runtimeContext.has(relative(src, target).split(sep).join('/')))
      continue;
    // The CLI may import types only from lower layers (erased at run time); values must come through api/.
    const statement = text.slice(text.lastIndexOf('\n', match.index) + 1, match.index + match[0].length);
    if (from === 'cli' && /^\s*import\s+type\s/.test(statement)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    violations.push(`${relative(process.cwd(), file)}:${line}: ${from} may not import ${to} (${specifier})`);
  }
}
if (violations.length > 0) {
  console.error(
    `Layering violations (see ARCHITECTURE.md "Dependency direction"):\n${violations.join('\n')}`,
  );
  process.exit(1);
}
console.log('layering: ok');
