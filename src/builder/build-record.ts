/**
 * `dist/.stratos-build.json`: written last by a successful build (its only writer), removed first by any build
 * that compiles. It holds the build's inputs, so reuse is decided by comparing them, never by compiling.
 */
import {rm} from 'node:fs/promises';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {isRecord, readJsonFile} from '../internal/json-file.ts';
import type {BuildInputs} from './build-inputs.ts';

export interface BuildRecord {
  format: 2;
  /** SHA-256 over the inputs (build-inputs.ts `buildKeyOf`). */
  key: string;
  sdkVersion: string;
  compilerVersion: string;
  builtAt: string;
  /** Absolute path of the compiled entrypoint module. */
  compiledEntrypoint: string;
  /** JSON Schemas exported from the workflow's Zod schemas, kept so describe and schema need no module load. */
  schemas: {input: Record<string, unknown>; output: Record<string, unknown>};
  inputs: BuildInputs;
  /**
   * SHA-256 of the workflow's `mcp.servers` configuration when it was built: a build that finds it changed deletes
   * the remembered negotiation verdicts (`generated/mcp-negotiation.json`, owned by `mcp/client`).
   */
  mcpServers?: string;
}

export async function readBuildRecord(file: string): Promise<BuildRecord | undefined> {
  try {
    const value = await readJsonFile(file);
    return isRecord(value) &&
      value.format === 2 &&
      typeof value.key === 'string' &&
      isRecord(value.inputs) &&
      Array.isArray(value.inputs.files)
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
