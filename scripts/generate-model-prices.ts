// Generates src/providers/pricing/model-prices.ts from the pinned Models.dev snapshot in ../shared/data/models.dev:
// for each provider Stratos can run a model on (the list below), each native model id's `[cost]` table in USD per
// million tokens (input, output, cache_read, cache_write, reasoning where present) and its `[[cost.tiers]]` (the
// prices from a context size on). A price the snapshot does not state stays absent: cost computation then says the
// cost is unknown rather than guessing.
//   node scripts/generate-model-prices.ts            writes the file
//   node scripts/generate-model-prices.ts --check    exits 1 when the file differs from a fresh generation
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join, relative, resolve, sep} from 'node:path';

const repository = resolve(import.meta.dirname, '..');
const output = join(repository, 'src', 'providers', 'pricing', 'model-prices.ts');

/**
 * The providers whose prices ship: the harnesses' own (Anthropic for Claude Code; OpenAI and Azure for Codex) and
 * the hosted providers OpenCode serves that agents name most. A provider not listed has unknown prices.
 */
export const pricedProviders = [
  'amazon-bedrock',
  'anthropic',
  'azure',
  'deepseek',
  'google',
  'google-vertex',
  'google-vertex-anthropic',
  'groq',
  'mistral',
  'openai',
  'openrouter',
  'xai',
];

/**
 * The snapshot's folder: `shared/data/models.dev` beside the checkout, or beside its parent folder (a checkout in a
 * folder of clones); undefined when neither exists.
 */
export function findPriceSnapshot(): string | undefined {
  return [resolve(repository, '..'), resolve(repository, '..', '..')]
    .map((folder) => join(folder, 'shared', 'data', 'models.dev'))
    .find((folder) => existsSync(join(folder, 'REVISION')));
}

const priceKeys = ['input', 'output', 'cache_read', 'cache_write', 'reasoning'] as const;

/** Path-style ids of the `.toml` files under `folder`, in sorted order. */
function listModelFiles(folder: string): {id: string; path: string}[] {
  const files: {id: string; path: string}[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, {withFileTypes: true}).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.toml'))
        files.push({id: relative(folder, path).slice(0, -5).split(sep).join('/'), path});
    }
  };
  walk(folder);
  return files;
}

type Prices = Partial<Record<(typeof priceKeys)[number], number>>;

/** The `[cost]` table and its `[[cost.tiers]]` of one model file (the TOML subset Models.dev writes). */
function readCost(path: string): {base: Prices; tiers: {size: number; prices: Prices}[]} | undefined {
  let section = '';
  let base: Prices | undefined;
  const tiers: {size: number; prices: Prices}[] = [];
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line.startsWith('[')) {
      section = line;
      if (line === '[cost]') base = {};
      if (line === '[[cost.tiers]]') tiers.push({size: Number.NaN, prices: {}});
      continue;
    }
    const match = /^([a-z_]+)\s*=\s*(.+)$/.exec(line);
    if (match === null) continue;
    const [, key, value] = match as unknown as [string, string, string];
    const number = Number(value.replaceAll('_', ''));
    const target = section === '[cost]' ? base : section === '[[cost.tiers]]' ? tiers.at(-1) : undefined;
    if (target === undefined) continue;
    if (section === '[[cost.tiers]]' && key === 'tier') {
      const size = /size\s*=\s*([\d_]+)/.exec(value);
      if (size !== null) tiers.at(-1)!.size = Number(size[1]!.replaceAll('_', ''));
      continue;
    }
    if (!(priceKeys as readonly string[]).includes(key) || !Number.isFinite(number)) continue;
    const prices = section === '[cost]' ? base! : tiers.at(-1)!.prices;
    prices[key as (typeof priceKeys)[number]] = number;
  }
  if (base === undefined) return undefined;
  return {base, tiers: tiers.filter((tier) => Number.isFinite(tier.size))};
}

/** `[input, output, cacheRead, cacheWrite, reasoning]` with `null` for a price the snapshot does not state. */
function priceRow(prices: Prices): string {
  return JSON.stringify(priceKeys.map((key) => prices[key] ?? null));
}

export function generateModelPrices(snapshot: string): string {
  const revision = readFileSync(join(snapshot, 'REVISION'), 'utf8').trim();
  const lines: string[] = [];
  for (const provider of pricedProviders) {
    const rows: string[] = [];
    for (const file of listModelFiles(join(snapshot, 'providers', provider, 'models'))) {
      const cost = readCost(file.path);
      if (cost === undefined || cost.base.input === undefined || cost.base.output === undefined) continue;
      const tiers = cost.tiers.map((tier) => `[${tier.size}, ${priceRow(tier.prices)}]`);
      rows.push(
        `    ${JSON.stringify(file.id)}: [${priceRow(cost.base)}${tiers.length === 0 ? '' : `, [${tiers.join(', ')}]`}],`,
      );
    }
    lines.push(`  ${JSON.stringify(provider)}: {\n${rows.join('\n')}\n  },`);
  }
  return `// Generated by scripts/generate-model-prices.ts from the Models.dev snapshot; do not edit.
// biome-ignore-all format: generated data, one model per line

/** The Models.dev revision these prices were generated from. */
export const modelPriceRevision = ${JSON.stringify(revision)};

/** USD per million tokens: input, output, cache read, cache write, reasoning; \`null\` where the snapshot states none. */
export type PriceRow = readonly [number, number, number | null, number | null, number | null];

/** One model's prices: the base row, then the rows that apply from a context size (input tokens) on, if any. */
export type ModelPrice = readonly [PriceRow] | readonly [PriceRow, readonly (readonly [number, PriceRow])[]];

/** Provider id → that provider's native model id → its prices. */
export const modelPrices: Readonly<Record<string, Readonly<Record<string, ModelPrice>>>> = {
${lines.join('\n')}
};
`;
}

if (import.meta.main) {
  const snapshot = findPriceSnapshot();
  if (snapshot === undefined) {
    console.error('The Models.dev snapshot (shared/data/models.dev) is not beside this checkout.');
    process.exit(1);
  }
  const text = generateModelPrices(snapshot);
  if (process.argv.includes('--check')) {
    const current = readFileSync(output, 'utf8');
    if (current !== text) {
      console.error(
        `${relative(process.cwd(), output)} differs from the snapshot; run node scripts/generate-model-prices.ts`,
      );
      process.exit(1);
    }
  } else writeFileSync(output, text);
}
