/**
 * The ordered candidates for an agent's model preferences (design philosophy, "Choose deliberately; fall back
 * narrowly"): an explicit harness constrains selection to it; otherwise each preference first with its creator's
 * harness (Anthropic with Claude Code, OpenAI with Codex), then a second pass with OpenCode in preference order,
 * where every creator's models take part. Each candidate carries the provider-native model id from the shipped
 * Models.dev identity mapping; a preference with no mapping for a harness's provider is no candidate there.
 */
import {parseModelIdentity, resolveNativeModelId} from '../../providers/models/model-identity.ts';

/** The harnesses selection knows; OpenCode takes part only where its adapter is registered. */
export type SelectableHarness = 'claude-code' | 'codex' | 'opencode';

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

const creatorHarness: Readonly<Record<string, SelectableHarness>> = {
  anthropic: 'claude-code',
  openai: 'codex',
};
/** The providers a harness serves without an explicit provider. */
const defaultProvider: Readonly<Record<Exclude<SelectableHarness, 'opencode'>, string>> = {
  'claude-code': 'anthropic',
  codex: 'openai',
};

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
      model: harness === 'opencode' ? `${provider}/${native}` : native,
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
    options.provider ?? (harness === 'opencode' ? creator : defaultProvider[harness]);
  if (options.harness !== undefined) {
    for (const parsed of valid)
      await add(parsed.identity, options.harness, providerFor(options.harness, parsed.creator));
  } else {
    for (const parsed of valid) {
      const harness = creatorHarness[parsed.creator];
      if (harness !== undefined && options.registered.includes(harness))
        await add(parsed.identity, harness, providerFor(harness, parsed.creator));
    }
    if (options.registered.includes('opencode'))
      for (const parsed of valid)
        await add(parsed.identity, 'opencode', providerFor('opencode', parsed.creator));
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
