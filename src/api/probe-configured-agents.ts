/**
 * `stratos provider status` for a harness whose agents each name their own program (ACP): the agents of that
 * harness in the discovered workflows' workflow.yaml, each program asked once through the record's `probeAgent`.
 */
import type {HarnessAgentProbe, HarnessRecord} from '../agents/harnesses/registry.ts';
import {discover, resolveHost} from './host.ts';

/** One configured agent and what its program answered. */
export type ConfiguredAgentStatus = {workflow: string; agent: string} & HarnessAgentProbe;

/** Every agent of `record`'s harness in the discovered workflows, probed (the same program once). */
export async function probeConfiguredAgents(
  record: HarnessRecord,
  env: Record<string, string>,
  cwd: string,
): Promise<ConfiguredAgentStatus[]> {
  const probe = record.probeAgent;
  if (probe === undefined) return [];
  const {workflows} = await discover(resolveHost({cwd, env}));
  const answers = new Map<string, Promise<HarnessAgentProbe>>();
  const statuses: Promise<ConfiguredAgentStatus>[] = [];
  for (const workflow of workflows) {
    for (const [agent, settings] of Object.entries(workflow.manifest?.agents ?? {})) {
      if (settings.harness !== record.id || typeof settings.command !== 'string') continue;
      const key = JSON.stringify([settings.command, settings.args, settings.env]);
      if (!answers.has(key)) answers.set(key, probe(settings, env, workflow.directory));
      statuses.push(answers.get(key)!.then((answer) => ({workflow: workflow.name, agent, ...answer})));
    }
  }
  return Promise.all(statuses);
}
