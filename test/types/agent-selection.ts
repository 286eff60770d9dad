// Type tests for agent selection: checked by `tsc --noEmit` over test/ (tsconfig.check.json), never run. Each
// `@ts-expect-error` line must fail to compile; if a type became too loose, the directive itself is the error.
import type {Agent, AgentSelection, HarnessId, SelectionSkip} from '../../src/index.ts';

export function typeChecks(agent: Agent): void {
  const selection: AgentSelection | undefined = agent.selection;
  if (selection === undefined) return;
  const harness: HarnessId = selection.harness;
  const provider: string | undefined = selection.provider;
  const model: string | undefined = selection.model;
  const identity: string | undefined = selection.identity;
  const sessions: number = selection.sessionsStarted;
  const skipped: readonly SelectionSkip[] = selection.skipped;
  const reasons: SelectionSkip['reason'][] = skipped.map((skip) => skip.reason);
  void [harness, provider, model, identity, sessions, reasons];

  // @ts-expect-error the selection is read-only on the agent
  agent.selection = selection;
  // @ts-expect-error a skip reason is one of the four, not any text
  const reason: SelectionSkip['reason'] = 'rate-limited';
  // @ts-expect-error the harness is a harness id
  const notHarness: HarnessId = 'gemini';
  // @ts-expect-error the provider may be undefined (the harness's default)
  const notOptional: string = selection.provider;
  void [reason, notHarness, notOptional];
}
