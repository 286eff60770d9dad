/**
 * The question builders: `choice`, `score` and `noul` are pure functions returning plain question values. They need
 * no run, no wrapper and no span; decision() asks them. The question types carry the answer types, so
 * `decision({questions: {kind: choice('...', ['bug', 'billing'])}})` answers `kind.choice: 'bug' | 'billing'`.
 */
import {StratosError} from '../errors/index.ts';

/** Most options a choice may have: one per top log-probability candidate Ollama returns (at most 20). */
export const maxChoiceOptions = 20;
/** Score levels: at least 2, at most 10 (levels 0 to 9). */
export const minScoreLevels = 2;
export const maxScoreLevels = 10;

/** Options of a choice: names, or names with the description the model reads. */
export type ChoiceOptions<Option extends string = string> =
  | readonly Option[]
  | Readonly<Record<Option, string | null>>;

export interface ChoiceQuestion<Option extends string = string> {
  readonly type: 'choice';
  readonly instructions: string;
  /** In the order given; `description` is null when only the name was given. */
  readonly options: readonly {readonly name: Option; readonly description: string | null}[];
}

export interface ScoreQuestion {
  readonly type: 'score';
  readonly instructions: string;
  /** Descriptions of levels 0, 1, 2 ... from lowest to highest. */
  readonly levels: readonly string[];
}

export interface NoulQuestion {
  readonly type: 'noul';
  readonly instructions: string;
  /** What counts as true and as false, when the instructions alone leave it open. */
  readonly criteria?: {readonly true?: string; readonly false?: string};
}

export type Question = ChoiceQuestion | ScoreQuestion | NoulQuestion;

/** The answer to a choice: the option the provider selected and the probability of every option. */
export interface ChoiceAnswer<Option extends string = string> {
  readonly type: 'choice';
  readonly choice: Option;
  readonly probabilities: Readonly<Record<Option, number>>;
  /** Only when the provider reports one (Ollama's decision API does); never computed by Stratos. */
  readonly confidence?: number;
}

/** The answer to a score: the probability-weighted mean level (may be fractional) and each level's probability. */
export interface ScoreAnswer {
  readonly type: 'score';
  readonly score: number;
  /** Index = level. */
  readonly probabilities: readonly number[];
  readonly confidence?: number;
}

/** The answer to a noul: the probability that the statement is true. No boolean is chosen for you. */
export interface NoulAnswer {
  readonly type: 'noul';
  readonly noul: number;
}

/** The answer type of one question. */
export type AnswerOf<Q> =
  Q extends ChoiceQuestion<infer Option>
    ? ChoiceAnswer<Option>
    : Q extends ScoreQuestion
      ? ScoreAnswer
      : Q extends NoulQuestion
        ? NoulAnswer
        : never;

/** Answers keyed by question name. */
export type DecisionAnswers<Questions extends Record<string, Question>> = {
  readonly [Name in keyof Questions]: AnswerOf<Questions[Name]>;
};

type OptionOf<Options> = Options extends readonly (infer O extends string)[]
  ? O
  : Options extends Readonly<Record<infer O extends string, string | null>>
    ? O
    : never;

/**
 * A question with one answer among `options`; the answer carries the selected option and every option's
 * probability.
 * @throws StratosError STRATOS_DECISION_QUESTION_INVALID (no options, duplicates, more than 20, blank text)
 * @example choice('Which team handles this ticket?', {billing: 'Payments and refunds', bug: 'Software errors'})
 */
export function choice<const Options extends ChoiceOptions>(
  instructions: string,
  options: Options,
): ChoiceQuestion<OptionOf<Options>> {
  requireText(instructions, 'choice', 'instructions');
  const entries: {name: string; description: string | null}[] = Array.isArray(options)
    ? (options as readonly unknown[]).map((name) => ({name: name as string, description: null}))
    : Object.entries(options as Record<string, unknown>).map(([name, description]) => ({
        name,
        description: description as string | null,
      }));
  if (entries.length < 2 || entries.length > maxChoiceOptions) {
    invalid(`A choice needs 2 to ${maxChoiceOptions} options; got ${entries.length}.`);
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    if (typeof entry.name !== 'string' || entry.name.trim() === '')
      invalid('Choice options must be non-empty names.');
    if (seen.has(entry.name)) invalid(`The choice option '${entry.name}' is given twice.`);
    seen.add(entry.name);
    if (entry.description !== null && typeof entry.description !== 'string') {
      invalid(`The description of choice option '${entry.name}' must be text or null.`);
    }
  }
  return Object.freeze({
    type: 'choice',
    instructions,
    options: Object.freeze(entries.map((entry) => Object.freeze(entry))),
  }) as ChoiceQuestion<OptionOf<Options>>;
}

/**
 * A question answered on ordered levels 0..n-1 (`levels` describe them, lowest first); the answer is the
 * probability-weighted mean level and the distribution.
 * @throws StratosError STRATOS_DECISION_QUESTION_INVALID (fewer than 2 or more than 10 levels, blank text)
 * @example score('How severe is the impact?', ['cosmetic', 'degraded service', 'outage'])
 */
export function score(instructions: string, levels: readonly string[]): ScoreQuestion {
  requireText(instructions, 'score', 'instructions');
  if (!Array.isArray(levels) || levels.length < minScoreLevels || levels.length > maxScoreLevels) {
    invalid(
      `A score needs ${minScoreLevels} to ${maxScoreLevels} levels; got ${Array.isArray(levels) ? levels.length : typeof levels}.`,
    );
  }
  for (const level of levels) requireText(level, 'score', 'level description');
  return Object.freeze({type: 'score', instructions, levels: Object.freeze([...levels])});
}

/**
 * A yes/no statement; the answer is the probability that it is true (thresholds stay in workflow code).
 * @throws StratosError STRATOS_DECISION_QUESTION_INVALID (blank text)
 * @example noul('The customer asks for a refund.')
 */
export function noul(instructions: string, criteria?: {true?: string; false?: string}): NoulQuestion {
  requireText(instructions, 'noul', 'instructions');
  if (criteria?.true !== undefined) requireText(criteria.true, 'noul', 'true criterion');
  if (criteria?.false !== undefined) requireText(criteria.false, 'noul', 'false criterion');
  const kept = criteria === undefined ? undefined : Object.freeze({...criteria});
  return Object.freeze({type: 'noul', instructions, ...(kept === undefined ? {} : {criteria: kept})});
}

function requireText(value: unknown, kind: string, what: string): void {
  if (typeof value !== 'string' || value.trim() === '')
    invalid(`The ${what} of a ${kind} question must be non-blank text.`);
}

function invalid(message: string): never {
  throw new StratosError('STRATOS_DECISION_QUESTION_INVALID', message);
}
