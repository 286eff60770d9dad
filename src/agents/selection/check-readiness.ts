/**
 * Readiness of planned candidates, checked without inference: the harness SDK is installed, authentication is
 * configured for the provider, and the model is in the provider's catalog when one is available. A complete
 * catalog excludes a model it does not list; absence from a partial catalog leaves it unknown (still a candidate).
 * A catalog that cannot be read (invalid, refused by policy, unreachable) is an error, never an empty list that
 * justifies another choice.
 */
import {findHarness} from '../harnesses/registry.ts';
import type {SelectableHarness, SelectionCandidate} from './plan-candidates.ts';

/** A provider's model listing. `complete`: every model the account can use is in it. */
export interface ModelCatalog {
  complete: boolean;
  models: ReadonlySet<string>;
}

export interface ReadinessChecks {
  isInstalled(harness: SelectableHarness): Promise<boolean>;
  hasAuthentication(harness: SelectableHarness, provider: string): Promise<boolean>;
  /** The provider's catalog; undefined when none is available. Throws a StratosError when one cannot be read. */
  readCatalog(provider: string): Promise<ModelCatalog | undefined>;
}

export type SkipReason = 'harness-missing' | 'authentication-missing' | 'model-unavailable';

export interface SkippedCandidate extends SelectionCandidate {
  reason: SkipReason;
  detail: string;
}

export interface ReadyCandidate extends SelectionCandidate {
  /** `listed`: the catalog names the model; `unknown`: no catalog, or a partial one without it. */
  catalog: 'listed' | 'unknown';
}

export interface ReadinessResult {
  ready: ReadyCandidate[];
  skipped: SkippedCandidate[];
}

/** Checks every candidate in order; each harness, authentication and catalog is checked once. */
export async function checkReadiness(
  candidates: readonly SelectionCandidate[],
  checks: ReadinessChecks,
): Promise<ReadinessResult> {
  const installed = memoize((harness: SelectableHarness) => checks.isInstalled(harness));
  const authenticated = memoize((key: string) => {
    const [harness, provider] = key.split('\n') as [SelectableHarness, string];
    return checks.hasAuthentication(harness, provider);
  });
  const catalogs = memoize((provider: string) => checks.readCatalog(provider));
  const result: ReadinessResult = {ready: [], skipped: []};
  for (const candidate of candidates) {
    if (!(await installed(candidate.harness))) {
      result.skipped.push({
        ...candidate,
        reason: 'harness-missing',
        detail: `${candidate.harness} is not installed`,
      });
      continue;
    }
    if (!(await authenticated(`${candidate.harness}\n${candidate.provider}`))) {
      result.skipped.push({
        ...candidate,
        reason: 'authentication-missing',
        detail: `no ${candidate.provider} credentials or ${candidate.harness} login are configured`,
      });
      continue;
    }
    const catalog = await catalogs(candidate.provider);
    const native = findHarness(candidate.harness).catalogModelId(candidate.provider, candidate.model);
    if (catalog?.models.has(native) === true) {
      result.ready.push({...candidate, catalog: 'listed'});
    } else if (catalog?.complete === true) {
      result.skipped.push({
        ...candidate,
        reason: 'model-unavailable',
        detail: `the ${candidate.provider} model catalog does not list '${native}'`,
      });
    } else {
      result.ready.push({...candidate, catalog: 'unknown'});
    }
  }
  return result;
}

function memoize<K, V>(load: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const cache = new Map<K, Promise<V>>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = load(key);
      cache.set(key, value);
    }
    return value;
  };
}
