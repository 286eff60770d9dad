// The layering rule as data: which layer of src/ may import which, and the cycles the check still tolerates.
// `scripts/check-layers.ts` enforces it and `scripts/layers-doc.ts` (`npm run docs:layers`) writes it into
// AGENTS.md ("The layering rule"); this module is the one place to change it.
import {sep} from 'node:path';

/**
 * The layer of a path relative to src/: its first folder (MCP has one layer per subfolder, `mcp/<sub>`); files
 * directly under src/ are the entries.
 */
export function layerOf(path: string): string {
  const parts = path.split(sep);
  if (parts.length === 1) return 'entry';
  if (parts[0] === 'mcp' && parts.length > 2) return `mcp/${parts[1]}`;
  return parts[0]!;
}

/** The folder of a path relative to src/, with `/` separators: `''` for the entries directly under src/. */
export function folderOf(path: string): string {
  return path.split(sep).slice(0, -1).join('/');
}

const base = ['internal', 'errors'];
const mcpLayers = ['mcp', 'mcp/client', 'mcp/codegen', 'mcp/auth', 'mcp/credentials'];
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

/**
 * What each layer may import besides itself, lowest layer first. The folder graph is a tree: no layer imports one
 * above it. `cli` may also import types (`import type`, erased at run time) from any layer; its values come
 * through `api`.
 */
export const allowedImports: Record<string, string[]> = {
  internal: [],
  errors: ['internal'],
  manifest: base,
  contract: base,
  config: base,
  telemetry: base,
  'mcp/credentials': base,
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
  engine: [...belowRuntime, 'runtime'],
  cases: [...belowRuntime, 'runtime'],
  viewer: [...belowRuntime, 'runtime'],
  api: [...belowRuntime, 'runtime', 'engine', 'cases', 'viewer'],
  cli: ['api', 'errors', 'internal'],
  entry: [...belowRuntime, 'runtime', 'engine', 'cases', 'viewer', 'api'],
};

/** Why a layer may import what it does, where the table alone does not say it. */
export const layerNotes: Record<string, string> = {
  context: 'the execution context carries the manifest and the telemetry recorder of an invocation',
  engine: 'the optional scale-out engine (DBOS, PostgreSQL): loaded only when settings name it',
  cli: 'plus `import type` from any layer; values come through `api`',
  entry: 'the files directly under `src/`: they only re-export by name',
};

/**
 * The cycles the check tolerates and prints as warnings, each as the check prints it (`a -> b -> a`, starting at
 * its smallest member): module cycles name files, folder cycles name folders below src/. This list only
 * shrinks: the check fails on a cycle it does not list and on a listed cycle that no longer exists.
 */
export const knownCycles: {cycle: string; reason: string}[] = [];

/** The markers in AGENTS.md around the generated table of `renderLayerTable()`. */
export const layerTableMarkers = {
  start: '<!-- layers:start (generated from scripts/layers.ts by `npm run docs:layers`) -->',
  end: '<!-- layers:end -->',
};

/** The table of allowed imports as a Markdown table: one row per layer, lowest first, with its note. */
export function renderLayerTable(): string {
  const rows = Object.entries(allowedImports).map(([layer, targets]) => {
    const list = targets.length === 0 ? 'nothing' : targets.map((target) => `\`${target}\``).join(', ');
    const note = layerNotes[layer];
    return `| \`${layer}\` | ${list} | ${note ?? ''} |`;
  });
  return ['| layer | may import, besides itself | note |', '| --- | --- | --- |', ...rows].join('\n');
}
