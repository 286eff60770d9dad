/** `dist/.stratos-build.json`: written last by a successful build, removed first by any build that starts. */
import {rm} from 'node:fs/promises';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {isRecord, readJsonFile} from '../internal/json-file.ts';

export interface BuildRecord {
  format: 1;
  key: string;
  sdkVersion: string;
  compilerVersion: string;
  builtAt: string;
  /** Absolute path of the compiled entrypoint module. */
  compiledEntrypoint: string;
  /** JSON Schemas exported from the workflow's Zod schemas, kept so describe and schema need no module load. */
  schemas: {input: Record<string, unknown>; output: Record<string, unknown>};
  /**
   * SHA-256 of the workflow's `mcp.servers` configuration when it was built: a build that finds it changed deletes
   * the remembered negotiation verdicts (`generated/mcp-negotiation.json`, owned by `mcp/client`).
   */
  mcpServers?: string;
}

export async function readBuildRecord(file: string): Promise<BuildRecord | undefined> {
  try {
    const value = await readJsonFile(file);
    return isRecord(value) && value.format === 1 && typeof value.key === 'string'
      ? (value as unknown as BuildRecord)
      : undefined;
  } catch {
    // A torn or foreign record is no record: the workflow is rebuilt, never run from a doubtful artifact.
    return undefined;
  }
}

export async function writeBuildRecord(file: string, record: BuildRecord): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
}

export async function removeBuildRecord(file: string): Promise<void> {
  await rm(file, {force: true});
}
