/**
 * `stratos skill status`: for each agent, the state of `stratos-workflows` in its current skills folder, plus
 * every other path where the records say Stratos made a link for it (for example under an earlier HOME or
 * CLAUDE_CONFIG_DIR). Reads only.
 */
import {dirname} from 'node:path';
import {inspectSkillLink, type SkillLinkStatus} from './inspect-skill-link.ts';
import {bundledSkillName, resolveSkillFolder, type SkillAgentId} from './skill-agents.ts';
import {checkSkillBundle} from './skill-bundle.ts';
import {readSkillRecords} from './skill-records.ts';

export interface SkillStatusEntry extends SkillLinkStatus {
  /** False for a recorded link outside the agent's current skills folder. */
  current: boolean;
}

export interface SkillStatusResult {
  skill: string;
  /** The bundled skill directory of this package. */
  target: string;
  records: string;
  agents: SkillStatusEntry[];
}

export async function getSkillStatus(options: {
  agents: readonly SkillAgentId[];
  env: NodeJS.ProcessEnv;
  bundle: string;
}): Promise<SkillStatusResult> {
  await checkSkillBundle(options.bundle);
  const records = await readSkillRecords(options.env);
  const entries: SkillStatusEntry[] = [];
  for (const agent of options.agents) {
    const folder = resolveSkillFolder(agent, options.env);
    const current = `${folder.folder}/${bundledSkillName}`;
    entries.push({...(await inspectSkillLink(folder, records, options.bundle, current)), current: true});
    for (const record of records.links) {
      if (record.agent !== agent || record.path === current) continue;
      const at = {...folder, folder: dirname(record.path), source: 'recorded earlier'};
      entries.push({...(await inspectSkillLink(at, records, options.bundle, record.path)), current: false});
    }
  }
  return {skill: bundledSkillName, target: options.bundle, records: records.file, agents: entries};
}
