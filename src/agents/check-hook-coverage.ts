/**
 * A control hook that quietly does nothing is worse than none (design philosophy, "Hooks control work"). An agent
 * with a `beforeTool` hook may only keep built-in tools its harness lets that hook see; the ones it cannot see are
 * listed in the harness's tool table (`unguarded`), and such an agent is refused before anything starts.
 */
import {StratosError} from '../errors/index.ts';
import type {AgentHooks} from './harness-kit/hooks.ts';
import type {HarnessId} from './harnesses/registry.ts';
import {findHarness} from './harnesses/registry.ts';
import type {ToolSelection} from './tool-names.ts';

/**
 * @throws StratosError STRATOS_AGENT_HOOK_UNGUARDED when the agent has a `beforeTool` hook and keeps a built-in tool
 *   the hook cannot see, naming the tools and the `disallowedTools` that removes them.
 */
export function assertHookCoverage(
  agent: string,
  harness: HarnessId,
  tools: ToolSelection,
  hooks: AgentHooks | undefined,
): void {
  if (hooks?.beforeTool === undefined) return;
  const record = findHarness(harness);
  const {unguarded, removable, canonical} = record.tools;
  const blind = Object.keys(unguarded).filter(
    (tool) => !removable.includes(tool) || tools.enabled.includes(tool),
  );
  if (blind.length === 0) return;
  // The shared name when one covers exactly this tool, so the fix reads the same on every harness.
  const names = blind.map(
    (tool) =>
      Object.entries(canonical).find(([, natives]) => natives.length === 1 && natives[0] === tool)?.[0] ??
      tool,
  );
  const reasons = [...new Set(blind.map((tool) => unguarded[tool]!))].join('; ');
  const list = names.map((name) => `'${name}'`).join(', ');
  throw new StratosError(
    'STRATOS_AGENT_HOOK_UNGUARDED',
    `Agent '${agent}' has a beforeTool hook, but on ${record.title} that hook cannot see the built-in tool${blind.length === 1 ? '' : 's'} ${blind.join(', ')} (${reasons}). ` +
      `Add disallowedTools: [${list}] so every tool call of the agent goes through the hook, or remove the beforeTool hook.`,
    {details: {agent, harness, tools: blind, disallowedTools: names}},
  );
}
