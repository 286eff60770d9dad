/**
 * `stratos skill uninstall`: removes the links Stratos owns for the selected agents (at the agent's current skills
 * folder and at every recorded path of that agent) and their records. An entry Stratos did not make is never
 * touched: it is reported as a warning, and a record that no longer describes what is there is dropped.
 */
import {readlink, unlink} from 'node:fs/promises';
import {dirname} from 'node:path';
import {type Diagnostic, isStratosError, StratosError} from '../errors/index.ts';
import {inspectSkillLink, type SkillLinkStatus} from './inspect-skill-link.ts';
import {bundledSkillName, resolveSkillFolder, type SkillAgentId} from './skill-agents.ts';
import {folderError} from './skill-bundle.ts';
import {dropSkillRecord, readSkillRecords, writeSkillRecords} from './skill-records.ts';

export interface SkillUninstallOutcome {
  agent: SkillAgentId;
  path: string;
  /** removed: Stratos's link is gone; absent: nothing was there; kept-foreign: not Stratos's, left; failed. */
  action: 'removed' | 'absent' | 'kept-foreign' | 'failed';
  /** What was there before. */
  state: SkillLinkStatus['state'];
  linkTarget?: string;
  error?: {code: string; message: string};
}

export interface UninstallSkillResult {
  skill: string;
  records: string;
  agents: SkillUninstallOutcome[];
  warnings: Diagnostic[];
}

export async function uninstallSkill(options: {
  agents: readonly SkillAgentId[];
  env: NodeJS.ProcessEnv;
  bundle: string;
}): Promise<UninstallSkillResult> {
  const records = await readSkillRecords(options.env);
  const outcomes: SkillUninstallOutcome[] = [];
  const warnings: Diagnostic[] = [];
  let changed = false;
  try {
    for (const agent of options.agents) {
      const folder = resolveSkillFolder(agent, options.env);
      const current = `${folder.folder}/${bundledSkillName}`;
      const recorded = records.links.filter((r) => r.agent === agent).map((r) => r.path);
      for (const path of [...new Set([current, ...recorded])]) {
        const at = {...folder, folder: dirname(path)};
        let status: SkillLinkStatus;
        try {
          status = await inspectSkillLink(at, records, options.bundle, path);
        } catch (error) {
          outcomes.push(failed(agent, path, 'missing', error));
          continue;
        }
        const linkTarget = status.linkTarget === undefined ? {} : {linkTarget: status.linkTarget};
        if (status.state === 'missing') {
          if (dropSkillRecord(records, path)) changed = true;
          outcomes.push({agent, path, action: 'absent', state: 'missing'});
          continue;
        }
        if (!status.owned) {
          if (dropSkillRecord(records, path)) changed = true;
          warnings.push({
            code: 'STRATOS_SKILL_FOREIGN_KEPT',
            severity: 'warning',
            message: `${folder.label}: ${path} was not made by Stratos and was left as it is.`,
          });
          outcomes.push({agent, path, action: 'kept-foreign', state: 'foreign', ...linkTarget});
          continue;
        }
        try {
          if ((await readlink(path)) !== status.linkTarget)
            throw new StratosError(
              'STRATOS_SKILL_FOREIGN_ENTRY',
              `${at.label}: ${path} changed while Stratos was removing the skill link; it was left as it is. Run 'stratos skill status' to see what it is.`,
            );
          await unlink(path);
        } catch (error) {
          const reason = isStratosError(error) ? error : folderError(at, path, error);
          outcomes.push(failed(agent, path, status.state, reason));
          continue;
        }
        dropSkillRecord(records, path);
        changed = true;
        outcomes.push({agent, path, action: 'removed', state: status.state, ...linkTarget});
      }
    }
  } finally {
    if (changed) await writeSkillRecords(records);
  }
  const result = {skill: bundledSkillName, records: records.file, agents: outcomes, warnings};
  const failures = outcomes.filter((o) => o.action === 'failed');
  if (failures.length > 0) {
    throw new StratosError(
      'STRATOS_SKILL_UNINSTALL_FAILED',
      `The skill link was not removed for ${[...new Set(failures.map((o) => o.agent))].join(', ')}. ${failures.map((o) => o.error?.message).join(' ')}`,
      {details: {skill: result.skill, records: result.records, agents: outcomes}},
    );
  }
  return result;
}

function failed(
  agent: SkillAgentId,
  path: string,
  state: SkillLinkStatus['state'],
  error: unknown,
): SkillUninstallOutcome {
  const stratos = isStratosError(error)
    ? error
    : new StratosError('STRATOS_INTERNAL', `Unexpected error: ${(error as Error).message}`, {cause: error});
  return {agent, path, action: 'failed', state, error: {code: stratos.code, message: stratos.message}};
}
