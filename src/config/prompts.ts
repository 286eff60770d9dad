/**
 * Prompt references (design philosophy, "Make configuration predictable"): literal text, a plain file, or a
 * Handlebars template rendered by Stratos. Files resolve relative to the workflow directory. Templates render in
 * strict mode, so a missing variable fails here, before anything reaches a model.
 *
 * | reference | meaning |
 * | --- | --- |
 * | `'Review the diff.'` | literal text, sent as written |
 * | `{text: 'Review {{file}}.', variables}` | inline Handlebars template |
 * | `{file: 'prompts/system.md'}` | plain file, sent as written |
 * | `{template: 'prompts/review.hbs', variables}` | Handlebars template file |
 */
import {StratosError} from '../errors/index.ts';
import {resolveConfiguredPath} from '../internal/configured-path.ts';
import {describeError} from '../internal/describe-error.ts';
import {NotRegularFileError, readRegularFile} from '../internal/regular-file.ts';
import {isPlainObject} from './precedence.ts';

export type PromptVariables = Record<string, unknown>;

export type PromptReference =
  | string
  | {text: string; variables?: PromptVariables}
  | {file: string}
  | {template: string; variables?: PromptVariables};

export interface ResolvePromptOptions {
  /** Relative files and templates resolve here: the workflow directory. */
  directory: string;
  /** Variables merged over the reference's own variables, by name. */
  variables?: PromptVariables | undefined;
  /** What the prompt is for, in messages: `system prompt of agent 'reviewer'`. */
  field: string;
}

const sourceKeys = ['text', 'file', 'template'] as const;

/** True when `value` has the shape of a {@link PromptReference}. */
export function isPromptReference(value: unknown): value is PromptReference {
  if (typeof value === 'string') return true;
  if (!isPlainObject(value)) return false;
  const sources = sourceKeys.filter((key) => key in value);
  if (sources.length > 1) return false;
  const keys = Object.keys(value);
  if (sources.length === 0)
    return keys.length === 1 && keys[0] === 'variables' && isPlainObject(value.variables);
  const source = sources[0]!;
  if (typeof value[source] !== 'string') return false;
  const allowed = source === 'file' ? ['file'] : [source, 'variables'];
  return (
    keys.every((key) => allowed.includes(key)) &&
    (value.variables === undefined || isPlainObject(value.variables))
  );
}

/**
 * The precedence rule for prompt fields: a higher layer's source (text, file, template) replaces the lower one's;
 * variables merge by name. A layer with only `variables` keeps the lower layer's source.
 */
export function mergePromptReferences(higher: unknown, lower: unknown): unknown {
  if (!isPlainObject(higher) || !isPlainObject(lower)) return higher;
  const higherHasSource = sourceKeys.some((key) => key in higher);
  const base = higherHasSource ? higher : {...lower, ...higher};
  const variables = {
    ...(isPlainObject(lower.variables) ? lower.variables : {}),
    ...(isPlainObject(higher.variables) ? higher.variables : {}),
  };
  const {variables: _drop, ...rest} = base;
  return Object.keys(variables).length > 0 && !('file' in rest) ? {...rest, variables} : rest;
}

/**
 * Renders a prompt reference to the text sent to a model.
 * @throws StratosError `STRATOS_PROMPT_INVALID` (bad reference or template syntax), `STRATOS_PROMPT_FILE_MISSING`,
 *   `STRATOS_PROMPT_VARIABLE_MISSING`.
 * @example
 * await resolvePrompt({template: 'prompts/review.hbs', variables: {pr: 42}}, {directory, field: 'prompt'});
 */
export async function resolvePrompt(
  reference: PromptReference,
  options: ResolvePromptOptions,
): Promise<string> {
  if (!isPromptReference(reference)) {
    throw new StratosError(
      'STRATOS_PROMPT_INVALID',
      `The ${options.field} is not a prompt: use text, {text, variables}, {file} or {template, variables}.`,
    );
  }
  if (typeof reference === 'string') {
    // Literal text, unless the caller supplied variables: then it is an inline template.
    if (options.variables === undefined || Object.keys(options.variables).length === 0) return reference;
    return render(reference, options.variables, options.field);
  }
  if ('file' in reference) {
    if (options.variables !== undefined && Object.keys(options.variables).length > 0) {
      throw new StratosError(
        'STRATOS_PROMPT_INVALID',
        `The ${options.field} is a plain file and takes no variables; use {template: '${reference.file}'} to render it.`,
      );
    }
    return readPromptFile(reference.file, options);
  }
  const variables = {...reference.variables, ...options.variables};
  if ('text' in reference) return render(reference.text, variables, options.field);
  if ('template' in reference) {
    const source = await readPromptFile(reference.template, options);
    return render(source, variables, `${options.field} (${reference.template})`);
  }
  throw new StratosError(
    'STRATOS_PROMPT_INVALID',
    `The ${options.field} has only variables and no text, file or template to render them into.`,
  );
}

/**
 * Checks a configured prompt without rendering it (variables may only arrive at execute): its file or template
 * can be read, and a template (or text with variables) parses as Handlebars.
 * @throws StratosError STRATOS_PROMPT_INVALID, STRATOS_PROMPT_FILE_MISSING
 */
export async function checkPromptReference(
  reference: PromptReference,
  options: Omit<ResolvePromptOptions, 'variables'>,
): Promise<void> {
  if (typeof reference === 'string') return;
  if ('file' in reference) {
    await readPromptFile(reference.file, options);
    return;
  }
  let source: string;
  if ('template' in reference) source = await readPromptFile(reference.template, options);
  else if ('text' in reference) source = reference.text;
  else return;
  handlebars ??= ((await import('handlebars')) as unknown as {default: HandlebarsModule}).default;
  try {
    handlebars.parse(source);
  } catch (error) {
    const field = 'template' in reference ? `${options.field} (${reference.template})` : options.field;
    throw invalidTemplate(error, field);
  }
}

async function readPromptFile(path: string, options: ResolvePromptOptions): Promise<string> {
  const absolute = resolveConfiguredPath(path, options.directory);
  try {
    return readRegularFile(absolute).toString('utf8');
  } catch (error) {
    const reason =
      error instanceof NotRegularFileError
        ? `is ${error.kind}, not a regular file`
        : `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    throw new StratosError(
      'STRATOS_PROMPT_FILE_MISSING',
      `The ${options.field} file ${absolute} ${reason}. Prompt files resolve relative to the workflow directory.`,
      {cause: error, details: {path: absolute}},
    );
  }
}

type HandlebarsModule = typeof import('handlebars');
let handlebars: HandlebarsModule | undefined;

async function render(source: string, variables: PromptVariables, field: string): Promise<string> {
  handlebars ??= ((await import('handlebars')) as unknown as {default: HandlebarsModule}).default;
  let template: (context: unknown) => string;
  try {
    template = handlebars.compile(source, {strict: true, noEscape: true});
  } catch (error) {
    throw invalidTemplate(error, field);
  }
  try {
    return template(variables);
  } catch (error) {
    const message = describeError(error);
    const missing = /"([^"]+)" not defined/.exec(message);
    if (missing !== null) {
      throw new StratosError(
        'STRATOS_PROMPT_VARIABLE_MISSING',
        `The ${field} uses the variable '${missing[1]}', which was not given. Pass it in the variables; nothing was sent to a model.`,
        {details: {variable: missing[1]}},
      );
    }
    throw invalidTemplate(error, field);
  }
}

function invalidTemplate(error: unknown, field: string): StratosError {
  const message = describeError(error);
  return new StratosError(
    'STRATOS_PROMPT_INVALID',
    `The ${field} is not a valid Handlebars template: ${message}`,
    {
      cause: error,
    },
  );
}
