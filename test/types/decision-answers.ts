// Type tests for decision(): checked by `tsc --noEmit` over test/, never run. Each `@ts-expect-error` line must
// fail to compile; if an answer type became too loose, the directive itself would be the error.
import {choice, type DecisionAnswers, decision, noul, score} from '../../src/index.ts';

export async function typeChecks(): Promise<void> {
  const answers = await decision({
    state: {ticket: 'Checkout fails', tags: ['web']},
    questions: {
      team: choice('Which team?', ['billing', 'bug']),
      queue: choice('Which queue?', {support: 'Product questions', sales: null}),
      urgent: noul('It needs attention today.'),
      severity: score('How severe?', ['low', 'high']),
    },
    config: 'triage',
  });

  const team: 'billing' | 'bug' = answers.team.choice;
  const queue: 'support' | 'sales' = answers.queue.choice;
  const billing: number = answers.team.probabilities.billing;
  const urgent: number = answers.urgent.noul;
  const severity: number = answers.severity.score;
  const levels: readonly number[] = answers.severity.probabilities;
  void [team, queue, billing, urgent, severity, levels];

  // @ts-expect-error 'sales' is not an option of team
  const wrongOption: 'sales' = answers.team.choice;
  // @ts-expect-error a choice is not a number
  const notNumber: number = answers.team.choice;
  // @ts-expect-error a noul answer is a probability, not a boolean
  const notBoolean: boolean = answers.urgent.noul;
  // @ts-expect-error a score is a number
  const notText: string = answers.severity.score;
  // @ts-expect-error no question is named missing
  void answers.missing;
  // @ts-expect-error probabilities are keyed by the options only
  void answers.queue.probabilities.bug;
  void [wrongOption, notNumber, notBoolean, notText];

  const typed: DecisionAnswers<{ok: ReturnType<typeof noul>}> = {ok: {type: 'noul', noul: 0.5}};
  void typed;

  await decision({
    // @ts-expect-error the state is JSON data: a function is not
    state: () => 'state',
    questions: {ok: noul('ok')},
  });
  // @ts-expect-error questions come from choice, score or noul
  await decision({state: 'x', questions: {ok: 'Is it ok?'}});
  // @ts-expect-error the only provider is ollama
  await decision({state: 'x', questions: {ok: noul('ok')}, config: {provider: 'jev', model: 'm'}});
}
