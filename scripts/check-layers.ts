// Checks the dependency direction of docs/contributing/architecture.md: every relative import in src/ must go to a layer the
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
const mcpLayers = ['mcp', 'mcp/client', 'mcp/codegen', 'mcp/auth', 'mcp/credentials'];
// What each layer may import besides itself: the rule of AGENTS.md ("The layering rule").
// The folder graph is a tree: no layer imports one above it.
const primitives = [...base, 'manifest', 'config', 'telemetry', 'context', 'providers', ...mcpLayers];
const belowRuntime = [
  ...primitives,
  'contract',
  'discovery',
  'agents',
  'decision',
  'worktrees',
  'builder',
  'skill',
];
const allowed: Record<string, string[]> = {
  internal: [],
  errors: ['internal'],
  manifest: base,
  contract: base,
  config: base,
  telemetry: base,
  'mcp/credentials': base,
  // The context carries the manifest and the telemetry recorder of an invocation (types only).
  context: [...base, 'manifest', 'telemetry'],
  discovery: [...base, 'manifest'],
  'mcp/codegen': [...base, 'config', 'telemetry', 'context', 'manifest', ...mcpLayers],
  'mcp/client': [...base, 'config', 'telemetry', 'context', 'manifest', ...mcpLayers],
  'mcp/auth': [...base, 'config', 'telemetry', 'context', 'manifest', ...mcpLayers],
  mcp: [...base, 'config', 'telemetry', 'context', 'manifest', ...mcpLayers],
  providers: [...base, 'config', 'context', 'telemetry'],
  agents: primitives,
  decision: primitives,
  worktrees: primitives,
  skill: [...base, 'config'],
  builder: [...primitives, 'discovery', 'contract'],
  runtime: belowRuntime,
  testing: [...belowRuntime, 'runtime'],
  viewer: [...belowRuntime, 'runtime'],
  api: [...belowRuntime, 'runtime', 'testing', 'viewer'],
  cli: ['api', 'errors', 'internal'],
  entry: [...belowRuntime, 'runtime', 'testing', 'viewer', 'api'],
};

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
    if (to === from || rules.includes(to)) continue;
    // The CLI may import types only from lower layers (erased at run time); values must come through api/.
    const statement = text.slice(text.lastIndexOf('\n', match.index) + 1, match.index + match[0].length);
    if (from === 'cli' && /^\s*import\s+type\s/.test(statement)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    violations.push(`${relative(process.cwd(), file)}:${line}: ${from} may not import ${to} (${specifier})`);
  }
}
if (violations.length > 0) {
  console.error(
    `Layering violations (see docs/contributing/architecture.md "The layering rule"):\n${violations.join('\n')}`,
  );
  process.exit(1);
}
console.log('layering: ok');
