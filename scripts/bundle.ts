// `npm run build`, after tsc: bundles dist/ into dist/bundle/, the files the package's entries and the CLI load.
// A cached `stratos run` and a no-op `stratos build` spend most of their time resolving and linking modules, so
// the modules those two paths load are merged into a few chunks; everything else stays behind its lazy import().
// One bundle serves the CLI and the authoring entries (`exports` points at it), so workflow code imported by the
// CLI shares its module instances: one AsyncLocalStorage, one admission state, one secret registry.
// Packages stay external; Node's built-ins are read with process.getBuiltinModule, without an ESM facade.
import {readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {type ManualChunkMeta, type Plugin, rollup} from 'rollup';
import {buildInputsStamp, hashBuildInputs} from './build-inputs.ts';
import {type CachedPath, cachedPathModules} from './cached-paths.ts';

const repo = resolve(import.meta.dirname, '..');
const dist = join(repo, 'dist');
const output = join(dist, 'bundle');

/**
 * The bundle's entries: the package's three authoring entries, the CLI, and the two scripts Stratos starts by path
 * (each found beside the module that starts it, `./<name>.js`, so they sit at the top of dist/bundle/ too).
 */
const entries = {
  index: 'index.js',
  workflows: 'workflows.js',
  mcp: 'mcp.js',
  cli: 'cli/run-cli.js',
  'retention-cleaner': 'telemetry/retention/retention-cleaner.js',
  'stdio-launcher': 'mcp/client/stdio-launcher.js',
};

/**
 * The hot paths, each as the modules on it (scripts/cached-paths.ts, checked by scripts/check-layers.ts): every
 * module they import statically is listed too, and the bundle holds them to it.
 */
const hotPaths: Record<CachedPath, string[]> = {build: [], entry: [], run: []};
for (const [module, paths] of Object.entries(cachedPathModules))
  for (const path of paths) hotPaths[path].push(module.replace(/\.ts$/, '.js'));

/**
 * Four chunks hold every module on a hot path, so that each path loads few files and none it does not need: the
 * no-op build loads `hot-build` and `hot-shared` (never the runtime or zod), the authoring entry `hot-shared` and
 * `hot-entry` (never the CLI), a cached run all four. Each chunk imports only chunks loaded with it.
 */
function hotChunkName(onBuild: boolean, onEntry: boolean, onRun: boolean): string | undefined {
  if (onBuild) return onEntry ? 'hot-shared' : 'hot-build';
  if (onEntry) return 'hot-entry';
  return onRun ? 'hot-run' : undefined;
}

/**
 * Packages the bundle includes: pure functions without state of their own, which workflow code never imports
 * through Stratos (SHA-256 for small inputs). Every other package stays external, so workflow code shares zod and
 * the SDKs with Stratos.
 */
const bundledPackages = ['@noble/hashes/'];

async function bundle(): Promise<void> {
  rmSync(output, {recursive: true, force: true});
  const build = await rollup({
    input: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(dist, file)])),
    external: (id) =>
      !id.startsWith('.') &&
      !id.startsWith('/') &&
      !id.startsWith('\0') &&
      !bundledPackages.some((name) => id.startsWith(name)),
    // No tree shaking: every module keeps what tsc emitted, side effects and exports alike.
    treeshake: false,
    plugins: [resolveBundledPackages(), withTscSourceMaps(), builtinsWithoutFacades()],
    onwarn(warning, warn) {
      // A circular import between two modules is legal and evaluated as before; `this` at the top level is
      // tsc's helper for rewritten import() extensions, which falls back when it is undefined.
      if (warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'THIS_IS_UNDEFINED') return;
      warn(warning);
      throw new Error(`bundle: ${warning.message}`);
    },
  });
  await build.write({
    dir: output,
    format: 'es',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: true,
    sourcemapExcludeSources: true,
    manualChunks: hotChunk,
  });
  await build.close();
}

const closures = new Map<string, Set<string>>();

/** The hot chunk of a module on a hot path; otherwise Rollup's own choice. */
function hotChunk(id: string, meta: ManualChunkMeta): string | undefined {
  if (closures.size === 0)
    for (const [name, seeds] of Object.entries(hotPaths))
      closures.set(
        name,
        staticClosure(
          name,
          seeds.map((file) => join(dist, file)),
          meta,
        ),
      );
  const on = (path: CachedPath) => closures.get(path)!.has(id);
  return hotChunkName(on('build'), on('entry'), on('run'));
}

/** The listed modules of a path and the bundled packages' files they import; a module of dist/ beyond them fails. */
function staticClosure(path: string, seeds: string[], meta: ManualChunkMeta): Set<string> {
  const members = new Set<string>();
  const pending = [...seeds];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (members.has(id)) continue;
    const info = meta.getModuleInfo(id);
    if (info === null) throw new Error(`bundle: the hot path module ${id} is not part of the bundle`);
    if (info.isExternal) continue;
    if (id.startsWith(dist) && !seeds.includes(id))
      throw new Error(
        `bundle: ${id} is imported on the cached ${path} path (by ${info.importers.join(', ')}) but not listed on it in scripts/cached-paths.ts; node scripts/check-layers.ts names the import`,
      );
    members.add(id);
    pending.push(...info.importedIds);
  }
  return members;
}

/** Finds the bundled packages' files the way Node would, from the dist/ module that imports them. */
function resolveBundledPackages(): Plugin {
  return {
    name: 'bundled-packages',
    resolveId(source, importer) {
      if (importer === undefined || !bundledPackages.some((name) => source.startsWith(name))) return null;
      return fileURLToPath(import.meta.resolve(source, pathToFileURL(importer).href));
    },
  };
}

/** Reads each module's tsc source map too, so the bundle's maps lead back to src/. */
function withTscSourceMaps(): Plugin {
  return {
    name: 'tsc-source-maps',
    load(id) {
      if (!id.endsWith('.js')) return null;
      const code = readFileSync(id, 'utf8');
      let map: string | undefined;
      try {
        map = readFileSync(`${id}.map`, 'utf8');
      } catch {}
      return map === undefined ? code : {code, map};
    },
  };
}

// `import {a, b as c} from 'node:fs';`, `import * as fs from 'node:fs';`, `import fs from 'node:fs';` or
// `import 'node:fs';`, as Rollup writes them at the top of a chunk.
const builtinImport =
  /^import\s+(?:([\w$]+)\s*,?\s*)?(?:\*\s+as\s+([\w$]+)\s*)?(?:\{([^}]*)\}\s*)?(?:from\s+)?'(node:[^']+)';$/gm;
const builtinDynamicImport = /\bimport\('(node:[^']+)'\)/g;

/**
 * Importing a built-in as an ES module builds a facade that reads every export, and reading some of them loads
 * more of Node (`node:util` pulls in worker_threads, `node:fs` the streams and fs/promises): about 40 internal
 * modules per command. process.getBuiltinModule returns the same object without a facade.
 */
function builtinsWithoutFacades(): Plugin {
  return {
    name: 'builtins-without-facades',
    renderChunk(code) {
      const rewritten = code
        .replace(builtinImport, (statement, defaultName, namespace, named, id) => {
          const module = `process.getBuiltinModule('${id}')`;
          const declarations: string[] = [];
          if (defaultName !== undefined) declarations.push(`const ${defaultName} = ${module};`);
          if (namespace !== undefined) declarations.push(`const ${namespace} = ${module};`);
          if (named !== undefined) {
            const bindings = (named as string)
              .split(',')
              .map((binding) => binding.trim())
              .filter((binding) => binding !== '')
              .map((binding) => binding.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, '$1: $2'));
            declarations.push(`const {${bindings.join(', ')}} = ${module};`);
          }
          if (declarations.length === 0 && !/^import\s+'node:[^']+';$/.test(statement))
            throw new Error(`bundle: unrecognised import of a built-in: ${statement}`);
          // One line for one line: the chunk's source map stays aligned.
          return declarations.join(' ');
        })
        .replace(builtinDynamicImport, (_, id) => `Promise.resolve(process.getBuiltinModule('${id}'))`);
      if (/^import\b[^;]*'node:/m.test(rewritten))
        throw new Error('bundle: an import of a built-in was left in a chunk');
      return {code: rewritten, map: null};
    },
  };
}

await bundle();
// The last step of every build: what it was built from, for scripts/build-if-stale.ts.
writeFileSync(buildInputsStamp, hashBuildInputs());
