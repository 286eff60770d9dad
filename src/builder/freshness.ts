/**
 * The build key: SHA-256 over the workflow's authored files and their paths, its dependency manifests, the
 * compiler version and flags, the SDK version and the bridged zod version. Equal keys mean a build can be reused.
 */
import {readdir, readFile} from 'node:fs/promises';
import {join, relative, sep} from 'node:path';
import {sha256Hex} from '../internal/hash.ts';
import {packageVersion} from '../internal/package-info.ts';
import {compilerFlags, compilerVersion} from './compiler.ts';
import {bridgedZodVersion} from './shared-sdk.ts';

/**
 * Folders inside a workflow that are never compiler input. `generated/` is not among them: its MCP wrappers are
 * compiled with the workflow, so a changed wrapper changes the key.
 */
const ownedFolders = new Set(['dist', 'node_modules', '.git']);

/** Build-key format; bump it when the meaning of a build record changes. */
export const buildFormat = 1;

export async function listAuthoredFiles(directory: string): Promise<string[]> {
  const files: string[] = [];
  async function walk(folder: string): Promise<void> {
    const entries = await readdir(folder, {withFileTypes: true});
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (folder === directory && ownedFolders.has(entry.name)) continue;
        if (entry.name === 'node_modules' || entry.name === '.git') continue;
        await walk(path);
      } else if (entry.isFile() && path !== join(directory, 'generated', 'mcp-negotiation.json')) {
        files.push(path);
      }
    }
  }
  await walk(directory);
  return files.sort();
}

export interface BuildKeyInput {
  directory: string;
  /** Further inputs that are not authored files, such as generated wrappers, keyed by a stable name. */
  extra?: Record<string, string>;
}

export async function computeBuildKey(input: BuildKeyInput): Promise<string> {
  const files = await listAuthoredFiles(input.directory);
  const entries = await Promise.all(
    files.map(async (file) => [
      relative(input.directory, file).split(sep).join('/'),
      sha256Hex(await readFile(file)),
    ]),
  );
  return sha256Hex(
    JSON.stringify({
      format: buildFormat,
      files: entries,
      extra: input.extra ?? {},
      compiler: compilerVersion(),
      flags: compilerFlags,
      sdk: packageVersion(),
      zod: await bridgedZodVersion(),
    }),
  );
}
