/**
 * The validated manifest of a workflow's last successful build, kept in `dist/.stratos-manifest.json` with the
 * SHA-256 of the workflow.yaml bytes it came from. Discovery reuses it while the bytes (and the Stratos version)
 * are unchanged, so a cached `stratos run` neither loads the YAML parser nor validates again. Discovery only reads
 * it; a build writes it.
 */
import {join} from 'node:path';
import type {Diagnostic} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {isRecord, readJsonFile} from '../internal/json-file.ts';
import {packageVersion} from '../internal/package-info.ts';
import type {WorkflowManifest} from '../manifest/index.ts';

export interface CachedManifest {
  manifest: WorkflowManifest;
  diagnostics: Diagnostic[];
}

function cacheFile(directory: string): string {
  return join(directory, 'dist', '.stratos-manifest.json');
}

/** The cached manifest when it was validated from workflow.yaml bytes with SHA-256 `hash`, else undefined. */
export async function readCachedManifest(
  directory: string,
  hash: string,
): Promise<CachedManifest | undefined> {
  const cached = await readJsonFile(cacheFile(directory)).catch(() => undefined);
  if (!isRecord(cached) || cached.sdkVersion !== packageVersion() || cached.hash !== hash) return undefined;
  if (!isRecord(cached.manifest) || !Array.isArray(cached.diagnostics)) return undefined;
  return {
    manifest: cached.manifest as unknown as WorkflowManifest,
    diagnostics: cached.diagnostics as Diagnostic[],
  };
}

/** Records the manifest a successful build used, under the hash of the bytes discovery validated it from. */
export async function writeManifestCache(
  directory: string,
  hash: string,
  cached: CachedManifest,
): Promise<void> {
  const content = {sdkVersion: packageVersion(), hash, ...cached};
  await writeFileAtomic(cacheFile(directory), `${JSON.stringify(content)}\n`);
}
