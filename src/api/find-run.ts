/** One recorded run by its folder name, its execution id, or a unique prefix of either. */
import {StratosError} from '../errors/index.ts';
import {readStoredRuns, type StoredRun} from '../telemetry/artifacts/run-store.ts';

/**
 * The run `target` names among the runs under `home`.
 * @throws StratosError STRATOS_RUNS_NOT_FOUND, STRATOS_RUNS_AMBIGUOUS.
 */
export async function findStoredRun(home: string, target: string): Promise<StoredRun> {
  const stored = await readStoredRuns(home);
  const exact = stored.filter((s) => s.record.runId === target || s.record.executionId === target);
  const matches =
    exact.length > 0
      ? exact
      : stored.filter((s) => s.record.runId.startsWith(target) || s.record.executionId.startsWith(target));
  if (matches.length === 0) {
    throw new StratosError(
      'STRATOS_RUNS_NOT_FOUND',
      `No recorded run matches '${target}' under ${home}/runs. Run 'stratos runs list --all' to see recorded runs.`,
      {details: {run: target}},
    );
  }
  if (matches.length > 1) {
    throw new StratosError(
      'STRATOS_RUNS_AMBIGUOUS',
      `'${target}' matches ${matches.length} runs (${matches
        .slice(0, 5)
        .map((m) => m.record.runId)
        .join(', ')}). Pass more of the run id.`,
      {details: {run: target, matches: matches.map((m) => m.record.runId)}},
    );
  }
  return matches[0]!;
}
