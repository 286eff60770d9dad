/**
 * What is at an agent's skill path, and whether Stratos owns it: `installed` (Stratos's link to this package's
 * skill), `outdated` (Stratos's link to another copy that still exists), `broken` (Stratos's link whose target is
 * gone, for example after the package moved), `missing` (nothing there) or `foreign` (a file, folder or link that
 * Stratos did not make, or one that was replaced after Stratos made it).
 */
import {lstat, readlink, stat} from 'node:fs/promises';
import {dirname, join, resolve} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {bundledSkillName, type SkillAgentId, type SkillFolder} from './skill-agents.ts';
import {findSkillRecord, type SkillRecords} from './skill-records.ts';

export type SkillLinkState = 'installed' | 'outdated' | 'broken' | 'missing' | 'foreign';

export interface SkillLinkStatus {
  agent: SkillAgentId;
  /** The agent's skills folder and how it was found. */
  folder: string;
  folderSource: string;
  /** `<folder>/stratos-workflows`. */
  path: string;
  state: SkillLinkState;
  /** True when Stratos made the entry (a record names it and the link still holds the recorded target). */
  owned: boolean;
  /** What is at the path: a link (with its text in `linkTarget`), a directory, a file or nothing. */
  entry: 'link' | 'directory' | 'file' | 'other' | 'none';
  linkTarget?: string;
  /** The bundled skill directory of this package: what an installed link points to. */
  expectedTarget: string;
  /** What to run or do, for every state but `installed`. */
  fix?: string;
}

/** Inspects `<folder>/stratos-workflows` for one agent. Reads only. */
export async function inspectSkillLink(
  folder: SkillFolder,
  records: SkillRecords,
  expectedTarget: string,
  path: string = join(folder.folder, bundledSkillName),
): Promise<SkillLinkStatus> {
  const base = {
    agent: folder.agent,
    folder: folder.folder,
    folderSource: folder.source,
    path,
    expectedTarget,
  };
  const install = `stratos skill install --agent ${folder.agent}`;
  let entry: Awaited<ReturnType<typeof lstat>>;
  try {
    entry = await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return {...base, state: 'missing', owned: false, entry: 'none', fix: `Run '${install}'.`};
    }
    throw new StratosError(
      'STRATOS_SKILL_FOLDER_UNUSABLE',
      `Cannot inspect ${path}, the ${folder.label} skill path: ${(error as Error).message}. Check the permissions of ${folder.folder}.`,
      {cause: error, details: {agent: folder.agent, path}},
    );
  }
  if (!entry.isSymbolicLink()) {
    const kind = entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';
    return {
      ...base,
      state: 'foreign',
      owned: false,
      entry: kind,
      fix: `Stratos did not make the ${kind} ${path}, so it leaves it as it is. If it is an old copy you no longer want, move it away yourself, then run '${install}'.`,
    };
  }
  const linkTarget = await readlink(path);
  const record = findSkillRecord(records, path);
  const resolved = resolve(dirname(path), linkTarget);
  if (record === undefined || record.agent !== folder.agent || record.target !== linkTarget) {
    const same = resolved === expectedTarget;
    return {
      ...base,
      state: 'foreign',
      owned: false,
      entry: 'link',
      linkTarget,
      fix: same
        ? `The link ${path} already points at this package's skill but Stratos did not make it; ${folder.label} can use it as it is. To let Stratos manage it, remove it yourself, then run '${install}'.`
        : `Stratos did not make the link ${path} (to ${linkTarget}), so it leaves it as it is. To use the bundled skill, remove it yourself, then run '${install}'.`,
    };
  }
  const exists = await stat(join(resolved, 'SKILL.md')).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!exists) {
    return {
      ...base,
      state: 'broken',
      owned: true,
      entry: 'link',
      linkTarget,
      fix: `The skill it points to is gone (the package moved or was removed). Run '${install}' to re-point it, or 'stratos skill uninstall --agent ${folder.agent}' to remove it.`,
    };
  }
  if (resolved !== expectedTarget) {
    return {
      ...base,
      state: 'outdated',
      owned: true,
      entry: 'link',
      linkTarget,
      fix: `It points to another copy of Stratos (${linkTarget}). Run '${install}' to point it at this one.`,
    };
  }
  return {...base, state: 'installed', owned: true, entry: 'link', linkTarget};
}
