/**
 * The constrained request for a completion model: one user message holding the state and the questions, and a
 * JSON schema (Ollama's `format`) that allows exactly one field per question with one literal per option. Choice
 * options are labelled A, B, C ... and score levels 0, 1, 2 ..., so every option starts with its own character and
 * its probability can be read from the first answer token (see answer-probabilities.ts).
 */
import type {Question} from './questions.ts';

export interface PreparedQuestion {
  name: string;
  question: Question;
  /** The exact JSON text of each option as the schema allows it, in option order. */
  literals: string[];
}

export interface ConstrainedPrompt {
  system: string;
  user: string;
  schema: Record<string, unknown>;
  questions: PreparedQuestion[];
}

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const system =
  'You answer questions about the state you are given. Judge each question on its own, from the state alone. ' +
  'Reply with one JSON object that has one field per question, holding only the label of your answer.';

/** The system and user messages, the response schema and each question's option literals. */
export function buildConstrainedPrompt(
  state: unknown,
  questions: Readonly<Record<string, Question>>,
): ConstrainedPrompt {
  const prepared: PreparedQuestion[] = [];
  const properties: Record<string, unknown> = {};
  const sections: string[] = [];
  for (const [name, question] of Object.entries(questions)) {
    if (question.type === 'choice') {
      const labels = question.options.map((_, index) => letters[index]!);
      prepared.push({name, question, literals: labels.map((label) => JSON.stringify(label))});
      properties[name] = {type: 'string', enum: labels};
      const lines = question.options.map(
        (option, index) =>
          `${labels[index]}: ${option.name}${option.description === null ? '' : ` - ${option.description}`}`,
      );
      sections.push(
        `${name} (choice, answer with the letter of one option): ${question.instructions}\n${lines.join('\n')}`,
      );
    } else if (question.type === 'score') {
      const labels = question.levels.map((_, index) => String(index));
      prepared.push({name, question, literals: labels.map((label) => JSON.stringify(label))});
      properties[name] = {type: 'string', enum: labels};
      const lines = question.levels.map((level, index) => `${index}: ${level}`);
      sections.push(
        `${name} (score, answer with the number of one level, lowest first): ${question.instructions}\n${lines.join('\n')}`,
      );
    } else {
      prepared.push({name, question, literals: ['true', 'false']});
      properties[name] = {type: 'boolean'};
      const criteria = [
        ...(question.criteria?.true === undefined ? [] : [`true: ${question.criteria.true}`]),
        ...(question.criteria?.false === undefined ? [] : [`false: ${question.criteria.false}`]),
      ];
      sections.push(
        `${name} (true or false): ${question.instructions}${criteria.length === 0 ? '' : `\n${criteria.join('\n')}`}`,
      );
    }
  }
  const stateText = typeof state === 'string' ? state : JSON.stringify(state, null, 2);
  return {
    system,
    user: `State:\n${stateText}\n\nQuestions:\n\n${sections.join('\n\n')}`,
    schema: {type: 'object', properties, required: Object.keys(properties), additionalProperties: false},
    questions: prepared,
  };
}

/**
 * An estimate of the prompt's tokens without the model's tokenizer: four UTF-8 bytes per token, about what
 * tokenizers reach on English prose and more than they reach on JSON, so it rarely overstates a prompt.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}
