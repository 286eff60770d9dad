/**
 * Ownership records: which skill links Stratos made and where they point, in `<STRATOS_HOME>/skill-links.json`.
 * A link counts as Stratos's only while a record names its path and the link still holds the recorded target, so
 * an entry someone else made (or replaced) is never removed or re-pointed.
 */
import {join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {writeFileAtomic} from '../internal/atomic-write.ts';
import {describeError} from '../internal/describe-error.ts';
import {isRecord, readJsonFile} from '../internal/json-file.ts';
import {resolveStratosHome} from '../internal/stratos-home.ts';
import {isSkillAgentId, type SkillAgentId} from './skill-agents.ts';

export interface SkillLinkRecord {
  agent: SkillAgentId;
  /** The skill's name (the link's base name). */
  skill: string;
  /** Absolute path of the link in the agent's skills folder. */
  path: string;
  /** The exact link text Stratos wrote: the absolute path of the bundled skill directory. */
  target: string;
  /** The Stratos version that made or last re-pointed the link. */
  version: string;
  createdAt: string;
}

export interface SkillRecords {
  file: string;
  links: SkillLinkRecord[];
}

export function skillRecordsFile(env: NodeJS.ProcessEnv): string {
  return join(resolveStratosHome(env), 'skill-links.json');
}

/** Reads the records; none when the file does not exist. A malformed file is an error and is left as it is. */
export async function readSkillRecords(env: NodeJS.ProcessEnv): Promise<SkillRecords> {
  const file = skillRecordsFile(env);
  let value: unknown;
  try {
    value = await readJsonFile(file);
  } catch (error) {
    throw malformed(file, describeError(error), error);
  }
  if (value === undefined) return {file, links: []};
  if (!isRecord(value) || value.version !== 1 || !Array.isArray(value.links)) {
    throw malformed(file, 'it is not a version 1 record file with a links list');
  }
  const links: SkillLinkRecord[] = [];
  for (const entry of value.links) {
    if (
      !isRecord(entry) ||
      typeof entry.agent !== 'string' ||
      !isSkillAgentId(entry.agent) ||
      typeof entry.skill !== 'string' ||
      typeof entry.path !== 'string' ||
      typeof entry.target !== 'string'
    ) {
      throw malformed(
        file,
        `an entry of links is not {agent, skill, path, target}: ${JSON.stringify(entry)}`,
      );
    }
    links.push({
      agent: entry.agent,
      skill: entry.skill,
      path: entry.path,
      target: entry.target,
      version: typeof entry.version === 'string' ? entry.version : 'unknown',
      createdAt: typeof entry.createdAt === 'string' ? entry.createdAt : '',
    });
  }
  return {file, links};
}

export async function writeSkillRecords(records: SkillRecords): Promise<void> {
  const sorted = [...records.links].sort(
    (a, b) => a.agent.localeCompare(b.agent) || a.path.localeCompare(b.path),
  );
  await writeFileAtomic(records.file, `${JSON.stringify({version: 1, links: sorted}, null, 2)}\n`);
}

export function findSkillRecord(records: SkillRecords, path: string): SkillLinkRecord | undefined {
  return records.links.find((record) => record.path === path);
}

/** Replaces the record of `record.path` (or adds it). */
export function putSkillRecord(records: SkillRecords, record: SkillLinkRecord): void {
  records.links = [...records.links.filter((r) => r.path !== record.path), record];
}

export function dropSkillRecord(records: SkillRecords, path: string): boolean {
  const before = records.links.length;
  records.links = records.links.filter((r) => r.path !== path);
  return records.links.length !== before;
}

function malformed(file: string, reason: string, cause?: unknown): StratosError {
  return new StratosError(
    'STRATOS_SKILL_RECORDS_INVALID',
    `The skill ownership records ${file} cannot be used: ${reason}. It was left as it is; move it away to start new records (links made earlier are then treated as not made by Stratos and must be removed by hand).`,
    {cause, details: {file}},
  );
}
