/** Decision: typed structured decisions with the provider's probabilities. */
export {type DecisionRequest, type DecisionState, decision} from './decision.ts';
export type {DecisionConfig, DecisionSettings, ResolvedDecisionSettings} from './decision-settings.ts';
export {
  type AnswerOf,
  type ChoiceAnswer,
  type ChoiceOptions,
  type ChoiceQuestion,
  choice,
  type DecisionAnswers,
  type NoulAnswer,
  type NoulQuestion,
  noul,
  type Question,
  type ScoreAnswer,
  type ScoreQuestion,
  score,
} from './questions.ts';
