/**
 * `stratos skill install`: a user-level symlink from each selected agent's skills folder to the bundled skill
 * directory. A missing link is created, Stratos's own broken or outdated link is re-pointed, an entry Stratos did
 * not make is never replaced (reported instead). Nothing else in the agent's folders or settings changes.
 */
import {lstat, mkdir, readlink, symlink, unlink} from 'node:fs/promises';
import {isStratosError, StratosError} from '../errors/index.ts';
import {packageVersion} from '../internal/package-info.ts';
import {inspectSkillLink, type SkillLinkStatus} from './inspect-skill-link.ts';
import {bundledSkillName, resolveSkillFolder, type SkillAgentId, type SkillFolder} from './skill-agents.ts';
import {checkSkillBundle, folderError} from './skill-bundle.ts';
import {putSkillRecord, readSkillRecords, type SkillRecords, writeSkillRecords} from './skill-records.ts';

export interface SkillInstallOutcome {
  agent: SkillAgentId;
  path: string;
  folder: string;
  /** What install did: made a new link, re-pointed Stratos's own link, found it in place, or changed nothing. */
  action: 'created' | 'repointed' | 'unchanged' | 'failed';
  /** The state after install. */
  state: SkillLinkStatus['state'];
  /** The link text before a re-point. */
  previousTarget?: string;
  error?: {code: string; message: string};
}

export interface InstallSkillResult {
  skill: string;
  /** The bundled skill directory the links point to. */
  target: string;
  /** The ownership records file. */
  records: string;
  agents: SkillInstallOutcome[];
}

export interface InstallSkillOptions {
  agents: readonly SkillAgentId[];
  env: NodeJS.ProcessEnv;
  /** The bundled skill directory (`<package>/skills/stratos-workflows`). */
  bundle: string;
}

/**
 * Installs for every selected agent, then throws `STRATOS_SKILL_INSTALL_FAILED` (with every outcome in
 * `details.agents`) when one of them could not be installed. Records are saved before that.
 */
export async function installSkill(options: InstallSkillOptions): Promise<InstallSkillResult> {
  await checkSkillBundle(options.bundle);
  const records = await readSkillRecords(options.env);
  const outcomes: SkillInstallOutcome[] = [];
  let changed = false;
  try {
    for (const agent of options.agents) {
      const folder = resolveSkillFolder(agent, options.env);
      const outcome = await installOne(folder, records, options.bundle);
      if (outcome.action === 'created' || outcome.action === 'repointed') changed = true;
      outcomes.push(outcome);
    }
  } finally {
    if (changed) await writeSkillRecords(records);
  }
  const result = {skill: bundledSkillName, target: options.bundle, records: records.file, agents: outcomes};
  const failed = outcomes.filter((o) => o.action === 'failed');
  if (failed.length > 0) {
    const done = outcomes.filter((o) => o.action !== 'failed').map((o) => o.agent);
    throw new StratosError(
      'STRATOS_SKILL_INSTALL_FAILED',
      `The skill was not installed for ${failed.map((o) => o.agent).join(', ')}${done.length > 0 ? ` (it is installed for ${done.join(', ')})` : ''}. ${failed.map((o) => o.error?.message).join(' ')}`,
      {details: result as unknown as Record<string, unknown>},
    );
  }
  return result;
}

async function installOne(
  folder: SkillFolder,
  records: SkillRecords,
  bundle: string,
): Promise<SkillInstallOutcome> {
  const base = {agent: folder.agent, folder: folder.folder};
  let status: SkillLinkStatus;
  try {
    status = await inspectSkillLink(folder, records, bundle);
  } catch (error) {
    return failure(base, `${folder.folder}/${bundledSkillName}`, 'missing', error);
  }
  const path = status.path;
  if (status.state === 'installed') return {...base, path, action: 'unchanged', state: 'installed'};
  if (status.state === 'foreign') {
    return failure(
      base,
      path,
      'foreign',
      new StratosError('STRATOS_SKILL_FOREIGN_ENTRY', `${folder.label}: ${status.fix}`),
    );
  }
  try {
    if (status.state === 'missing') {
      await ensureFolder(folder);
      await symlink(bundle, path, 'dir');
    } else {
      // Stratos's own link (broken or outdated): replace it only while it still holds the recorded text.
      if ((await readlink(path)) !== status.linkTarget)
        throw new StratosError(
          'STRATOS_SKILL_FOREIGN_ENTRY',
          `${folder.label}: ${path} changed while Stratos was installing the skill; it was left as it is. Run 'stratos skill status' to see what it is.`,
        );
      await unlink(path);
      await symlink(bundle, path, 'dir');
    }
  } catch (error) {
    if (isStratosError(error)) return failure(base, path, 'foreign', error);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      return failure(
        base,
        path,
        'foreign',
        new StratosError(
          'STRATOS_SKILL_FOREIGN_ENTRY',
          `${folder.label}: ${path} appeared while Stratos was installing the skill; it was left as it is. Run 'stratos skill status' to see what it is.`,
          {cause: error},
        ),
      );
    }
    return failure(base, path, status.state, folderError(folder, path, error));
  }
  putSkillRecord(records, {
    agent: folder.agent,
    skill: bundledSkillName,
    path,
    target: bundle,
    version: packageVersion(),
    createdAt: new Date().toISOString(),
  });
  return status.state === 'missing'
    ? {...base, path, action: 'created', state: 'installed'}
    : {
        ...base,
        path,
        action: 'repointed',
        state: 'installed',
        ...(status.linkTarget === undefined ? {} : {previousTarget: status.linkTarget}),
      };
}

/** Creates the agent's skills folder when it is missing; a folder that is a link to nowhere is reported. */
async function ensureFolder(folder: SkillFolder): Promise<void> {
  try {
    await mkdir(folder.folder, {recursive: true});
  } catch (error) {
    const link = await lstat(folder.folder).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    if (!link) throw error;
    const target = await readlink(folder.folder);
    throw new StratosError(
      'STRATOS_SKILL_FOLDER_UNUSABLE',
      `${folder.label}'s skills folder ${folder.folder} is a link to ${target}, which does not exist. Create ${target} (or remove the link), then run 'stratos skill install --agent ${folder.agent}' again.`,
      {cause: error, details: {agent: folder.agent, folder: folder.folder, linkTarget: target}},
    );
  }
}

function failure(
  base: {agent: SkillAgentId; folder: string},
  path: string,
  state: SkillLinkStatus['state'],
  error: unknown,
): SkillInstallOutcome {
  const stratos = isStratosError(error)
    ? error
    : new StratosError('STRATOS_INTERNAL', `Unexpected error: ${(error as Error).message}`, {cause: error});
  return {...base, path, action: 'failed', state, error: {code: stratos.code, message: stratos.message}};
}
