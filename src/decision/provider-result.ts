/** What a decision provider is asked and what it returns, before decision() records and hands out the answers. */
import type {ResolvedDecisionSettings} from './decision-settings.ts';
import type {ChoiceAnswer, NoulAnswer, Question, ScoreAnswer} from './questions.ts';

export interface ProviderRequest {
  /** `Decision 'triage'`, for messages. */
  label: string;
  settings: ResolvedDecisionSettings;
  state: unknown;
  questions: Readonly<Record<string, Question>>;
}

export type ProviderAnswer = ChoiceAnswer | ScoreAnswer | NoulAnswer;

export interface ProviderResult {
  answers: Record<string, ProviderAnswer>;
  /** The model as the provider reports it. */
  model: string;
  /** Token counts as reported; absent when the provider did not report them. */
  usage: {inputTokens?: number; outputTokens?: number};
}
