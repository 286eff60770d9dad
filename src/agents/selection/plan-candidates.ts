/**
 * The ordered candidates for an agent's model preferences (design philosophy, "Choose deliberately; fall back
 * narrowly"): an explicit harness constrains selection to it; otherwise each preference first with its creator's
 * harness (a registry record's `creators`: Anthropic with Claude Code, OpenAI with Codex), then a second pass with
 * each harness that serves `any` creator (OpenCode) in preference order, where every creator's models take part.
 * Each candidate carries the provider-native model id from the shipped Models.dev identity mapping; a preference
 * with no mapping for a harness's provider is no candidate there.
 */
import {parseModelIdentity, resolveNativeModelId} from '../../providers/models/model-identity.ts';
import {findHarness, type HarnessId} from '../harnesses/registry.ts';

/** The harnesses selection knows: the registered ones. */
export type SelectableHarness = HarnessId;

/** One harness + provider + model to try, in order. */
export interface SelectionCandidate {
  harness: SelectableHarness;
  /** The provider serving the model (`anthropic`, `openai`, `azure`, ...). */
  provider: string;
  /** The hosted identity as the author wrote it (`openai/gpt-5`). */
  identity: string;
  /** The model id as the harness expects it (`gpt-5`; for OpenCode `<provider>/<native id>`). */
  model: string;
}

export interface PlanCandidatesOptions {
  /** Ordered hosted identities (`anthropic/claude-sonnet-4-5`). */
  models: readonly string[];
  harness?: SelectableHarness | undefined;
  /** An explicit provider (`azure`): the one provider every candidate uses. */
  provider?: string | undefined;
  /** Harnesses with a registered adapter; a pass over a harness that is not registered is skipped. */
  registered: readonly SelectableHarness[];
}

export interface PlannedSelection {
  candidates: SelectionCandidate[];
  /** Preferences that map to no candidate at all, with why (a configuration error). */
  unmapped: {identity: string; reason: string}[];
}

/** Plans the candidates in trial order. Nothing here checks installation, credentials or catalogs. */
export async function planCandidates(options: PlanCandidatesOptions): Promise<PlannedSelection> {
  const candidates: SelectionCandidate[] = [];
  const unmapped: PlannedSelection['unmapped'] = [];
  const tried = new Map<string, string[]>();
  const add = async (identity: string, harness: SelectableHarness, provider: string) => {
    const native = await resolveNativeModelId(identity, provider);
    if (native === undefined) {
      tried.set(identity, [...(tried.get(identity) ?? []), `${harness} (provider ${provider})`]);
      return;
    }
    candidates.push({
      harness,
      provider,
      identity,
      model: findHarness(harness).modelId(provider, native),
    });
  };
  const identities = options.models.map((text) => {
    const parsed = parseModelIdentity(text);
    if (parsed === undefined)
      unmapped.push({identity: text, reason: 'it is not a hosted identity of the form <creator>/<model>'});
    return parsed;
  });
  const valid = identities.filter((parsed) => parsed !== undefined);
  const providerFor = (harness: SelectableHarness, creator: string) =>
    options.provider ?? findHarness(harness).defaultProvider(creator);
  if (options.harness !== undefined) {
    for (const parsed of valid)
      await add(parsed.identity, options.harness, providerFor(options.harness, parsed.creator));
  } else {
    const registered = options.registered.map((harness) => findHarness(harness));
    for (const parsed of valid) {
      const record = registered.find(
        (candidate) => candidate.creators !== 'any' && candidate.creators.includes(parsed.creator),
      );
      if (record !== undefined)
        await add(
          parsed.identity,
          record.id as HarnessId,
          providerFor(record.id as HarnessId, parsed.creator),
        );
    }
    for (const record of registered.filter((candidate) => candidate.creators === 'any'))
      for (const parsed of valid)
        await add(
          parsed.identity,
          record.id as HarnessId,
          providerFor(record.id as HarnessId, parsed.creator),
        );
  }
  for (const parsed of valid) {
    if (candidates.some((candidate) => candidate.identity === parsed.identity)) continue;
    const where = tried.get(parsed.identity);
    unmapped.push({
      identity: parsed.identity,
      reason:
        where === undefined
          ? `no registered harness serves models of '${parsed.creator}'; set an explicit harness`
          : `the Models.dev mapping (shipped with Stratos) links no native model id for ${where.join(' or ')}`,
    });
  }
  return {candidates, unmapped};
}
