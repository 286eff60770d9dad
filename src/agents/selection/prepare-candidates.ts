/**
 * Selection for an agent with model preferences, at its first execute: plans the candidates, checks the
 * configuration each needs (a mapping for every preference, the effort on the candidate's harness), then checks
 * readiness without inference. What was skipped, and why, is kept for the agent's span, events and `selection`.
 */
import {StratosError} from '../../errors/index.ts';
import {findHarness, harnessIds, isHarnessId, isHarnessInstalled} from '../harnesses/registry.ts';
import type {ResolvedAgentSettings} from '../settings.ts';
import {checkReadiness, type ReadyCandidate, type SkippedCandidate} from './check-readiness.ts';
import {planCandidates} from './plan-candidates.ts';
import {readModelCatalog} from './read-model-catalog.ts';

export interface PreparedCandidates {
  ready: ReadyCandidate[];
  skipped: SkippedCandidate[];
}

/**
 * The ready candidates in trial order.
 * @throws StratosError STRATOS_AGENT_MODEL_UNMAPPED, STRATOS_AGENT_CONFIG_INVALID, STRATOS_AGENT_NO_CANDIDATE,
 *   STRATOS_AGENT_CATALOG_INVALID / _DENIED / _UNREACHABLE (never turned into a skip).
 */
export async function prepareCandidates(options: {
  agent: string;
  settings: ResolvedAgentSettings;
  env: Readonly<Record<string, string>>;
  signal: AbortSignal;
}): Promise<PreparedCandidates> {
  const {agent, settings, env} = options;
  const plan = await planCandidates({
    models: settings.models ?? [],
    harness: settings.harnessSelected ? undefined : settings.harness,
    provider: settings.provider,
    registered: harnessIds,
  });
  if (plan.unmapped.length > 0) throw unmappedError(agent, plan.unmapped);
  if (settings.effort !== undefined) {
    for (const candidate of plan.candidates) {
      const levels = isHarnessId(candidate.harness) ? findHarness(candidate.harness).effortLevels : undefined;
      if (levels !== undefined && !levels.includes(settings.effort)) {
        throw new StratosError(
          'STRATOS_AGENT_CONFIG_INVALID',
          `Agent '${agent}' has effort '${settings.effort}', which ${candidate.harness} (a candidate for ${candidate.identity}) does not support; use one of ${levels.join(', ')}, or an explicit harness.`,
          {details: {agent, field: 'effort'}},
        );
      }
    }
  }
  const result = await checkReadiness(plan.candidates, {
    isInstalled: async (harness) => isHarnessId(harness) && isHarnessInstalled(findHarness(harness)),
    hasAuthentication: async (harness, provider) => {
      if (!isHarnessId(harness)) return false;
      try {
        await findHarness(harness).checkAuthentication(env, provider);
        return true;
      } catch (error) {
        if (error instanceof StratosError && error.code === 'STRATOS_AUTH_REQUIRED') return false;
        throw error;
      }
    },
    readCatalog: (provider) => readModelCatalog(provider, {env, signal: options.signal}),
  });
  if (result.ready.length === 0) {
    throw new StratosError(
      'STRATOS_AGENT_NO_CANDIDATE',
      `Agent '${agent}' has no ready model: ${result.skipped.map((s) => `${s.identity} on ${s.harness} (${s.detail})`).join('; ')}. Install the harness, configure its authentication, or choose a model the catalog lists; 'stratos provider status' shows what is missing.`,
      {details: {agent, skipped: result.skipped}},
    );
  }
  return result;
}

/** The errors of preferences that map to no candidate (also checked at build). */
export function unmappedError(agent: string, unmapped: {identity: string; reason: string}[]): StratosError {
  return new StratosError(
    'STRATOS_AGENT_MODEL_UNMAPPED',
    `Agent '${agent}' prefers ${unmapped.map((u) => `'${u.identity}', but ${u.reason}`).join('; and ')}.`,
    {details: {agent, field: 'models', unmapped}},
  );
}
