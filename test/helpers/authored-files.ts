// Byte snapshots of the files an author owns in a temporary project, to prove a failing command touched none.
// Stratos-owned paths (build output, generated wrappers, installed dependencies, the root's shared-SDK package.json)
// are left out: they may change; everything else must keep its exact bytes.
import {readdir, readFile, stat} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';

const ownedFolders = new Set(['dist', 'generated', '.generated', 'node_modules']);

export type FileSnapshot = Map<string, string>;

/** Every authored file below the given folders, and the given files (absolute path to base64 bytes). */
export async function snapshotAuthoredFiles(...paths: string[]): Promise<FileSnapshot> {
  const snapshot: FileSnapshot = new Map();
  async function walk(folder: string): Promise<void> {
    const entries = await readdir(folder, {withFileTypes: true});
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!ownedFolders.has(entry.name)) await walk(path);
      } else if (entry.isFile() && !isSharedSdkManifest(path)) {
        snapshot.set(path, (await readFile(path)).toString('base64'));
      }
    }
  }
  for (const path of paths) {
    if ((await stat(path)).isDirectory()) await walk(path);
    else snapshot.set(path, (await readFile(path)).toString('base64'));
  }
  return snapshot;
}

/** `<root>/package.json` of a discovery root (`.../workflows/package.json`) belongs to Stratos: the shared SDK. */
function isSharedSdkManifest(path: string): boolean {
  return basename(path) === 'package.json' && basename(dirname(path)) === 'workflows';
}

/** The paths whose bytes differ, appeared or disappeared between two snapshots (empty when nothing changed). */
export function changedFiles(before: FileSnapshot, after: FileSnapshot): string[] {
  const changed = new Set<string>();
  for (const [path, bytes] of before) if (after.get(path) !== bytes) changed.add(path);
  for (const path of after.keys()) if (!before.has(path)) changed.add(path);
  return [...changed].sort();
}
