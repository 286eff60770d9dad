/**
 * Test cases: files beside a workflow, `<workflow>/tests/<case>.yaml` (or `.yml`, `.json`), one case each. A case
 * is an input, what the run must produce (`output`, a partial `match`, or an `error` code) and the scripted
 * answers its agents, decisions and MCP servers get. The format is documented in docs/testing.md.
 */
import {readdir} from 'node:fs/promises';
import {extname, join} from 'node:path';
import {LineCounter, parseDocument} from 'yaml';
import {z} from 'zod';
import {findJsonValueProblem, MAX_VALUE_DEPTH} from '../contract/index.ts';
import {errorCodes, StratosError} from '../errors/index.ts';
import {isNotFound} from '../internal/json-file.ts';
import {NotRegularFileError, readRegularFile} from '../internal/regular-file.ts';
import {findYamlDepthProblem} from '../manifest/index.ts';
import {
  type AliasProblem,
  indexAliases,
  MAX_YAML_ALIAS_VALUES,
  MAX_YAML_ALIASES,
} from '../manifest/yaml-aliases.ts';
import {caseExtensions} from './case-name.ts';
import {type CasePaths, casePathsOf, expandPathPlaceholders} from './case-paths.ts';
import {NEEDS_VALUE} from './record-case.ts';

export const CASES_FOLDER = 'tests';
const caseFileExtensions = new Set<string>(caseExtensions);

/**
 * How deep a case file may nest: a value in it (an input, an expected output, a scripted result) keeps the limit
 * of workflow input and output (MAX_VALUE_DEPTH), and sits at most this many levels down in the case
 * (`mcp.<server>[i].result.structuredContent`).
 */
const caseStructureDepth = 5;
export const MAX_CASE_DEPTH = MAX_VALUE_DEPTH + caseStructureDepth;

/**
 * A mapping kept exactly as the file wrote it, as `--input` JSON is: its own keys (`__proto__` and `constructor`
 * included) stay plain keys, neither dropped nor read from a prototype, so the contract and the comparison see them.
 */
const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  {message: 'expected a mapping (an object)'},
);

const agentScript = z
  .strictObject({
    agent: z.string().min(1),
    workflow: z.string().min(1).optional(),
    prompt: z.string().optional(),
    reply: z.string().optional(),
    output: z.unknown().optional(),
  })
  .refine((script) => (script.reply === undefined) !== (script.output === undefined), {
    message: 'give exactly one of reply (text) or output (a structured value)',
  });

const toolScript = z.strictObject({
  tool: z.string().min(1),
  workflow: z.string().min(1).optional(),
  arguments: jsonObject.optional(),
  result: z.looseObject({
    content: z.array(z.unknown()).default([]),
    structuredContent: jsonObject.optional(),
    isError: z.boolean().optional(),
  }),
});

const decisionScript = z.strictObject({
  decision: z.string().min(1),
  workflow: z.string().min(1).optional(),
  answers: jsonObject,
});

/**
 * A child workflow's scripted result: the child is then not run (its input and output are still validated by its
 * own contract). `input`, when given, must equal what the parent passes; `error` makes the child fail with that code.
 */
const childScript = z
  .strictObject({
    child: z.string().min(1),
    workflow: z.string().min(1).optional(),
    input: jsonObject.optional(),
    output: jsonObject.optional(),
    error: z
      .string()
      .refine((code) => Object.hasOwn(errorCodes, code), {
        message: 'a Stratos error code listed in docs/errors.md, such as STRATOS_AGENT_OUTPUT_INVALID',
      })
      .optional(),
    message: z.string().min(1).optional(),
  })
  .refine((script) => (script.output === undefined) !== (script.error === undefined), {
    message: "give exactly one of output (the child's result) or error (the code it fails with)",
  })
  .refine((script) => script.message === undefined || script.error !== undefined, {
    message: 'message goes with error',
  });

const testCaseSchema = z
  .strictObject({
    description: z.string().optional(),
    input: jsonObject.default({}),
    output: jsonObject.optional(),
    match: jsonObject.optional(),
    error: z
      .string()
      .regex(/^STRATOS_[A-Z0-9_]+$/, 'an error code such as STRATOS_OUTPUT_INVALID')
      .optional(),
    agents: z.array(agentScript).default([]),
    mcp: z.record(z.string(), z.array(toolScript)).default({}),
    decisions: z.array(decisionScript).default([]),
    children: z.array(childScript).default([]),
  })
  .refine((c) => [c.output, c.match, c.error].filter((expected) => expected !== undefined).length === 1, {
    message: 'give exactly one of output (exact), match (partial) or error (an expected error code)',
  });

export type TestCase = z.output<typeof testCaseSchema>;
export type AgentScript = TestCase['agents'][number];
export type ToolScript = TestCase['mcp'][string][number];
export type DecisionScript = TestCase['decisions'][number];
export type ChildScript = TestCase['children'][number];

/** One case file as read: the case, or why it cannot be used. */
export type CaseFile =
  | {name: string; file: string; ok: true; testCase: TestCase}
  | {name: string; file: string; ok: false; error: StratosError};

/**
 * The case files of a workflow folder, by name; an absent `tests/` folder is no cases. `invocationDirectory` is
 * what `{cwd}` in a case stands for (case-paths.ts).
 */
export async function readTestCases(directory: string, invocationDirectory: string): Promise<CaseFile[]> {
  const folder = join(directory, CASES_FOLDER);
  let names: string[];
  try {
    // Every entry named like a case, whatever it is: a FIFO, a directory or a symbolic link is then reported by
    // readTestCase (it reads regular files only), not silently skipped.
    names = (await readdir(folder)).filter((name) => caseFileExtensions.has(extname(name))).sort();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  const paths = casePathsOf(directory, invocationDirectory);
  return Promise.all(names.map((file) => readTestCase(join(folder, file), paths)));
}

export async function readTestCase(file: string, paths: CasePaths): Promise<CaseFile> {
  const name = file.slice(file.lastIndexOf('/') + 1, -extname(file).length);
  let raw: unknown;
  try {
    const text = readRegularFile(file).toString('utf8');
    if (extname(file) === '.json') raw = JSON.parse(text);
    else {
      // The YAML parser recurses: a hostile nesting is refused on the text before it can overflow the stack.
      const deep = findYamlDepthProblem(text, MAX_CASE_DEPTH + 1);
      if (deep !== undefined) {
        const where = `line ${deep.line}, column ${deep.column}`;
        return {name, file, ok: false, error: invalid(file, tooDeep(where))};
      }
      const yaml = parseCaseYaml(text);
      if ('problem' in yaml) return {name, file, ok: false, error: invalid(file, yaml.problem)};
      raw = yaml.value;
    }
  } catch (error) {
    const problem =
      error instanceof NotRegularFileError
        ? `it is ${error.kind}, not a regular file.`
        : (error as Error).message;
    return {name, file, ok: false, error: invalid(file, problem, error)};
  }
  // The same check as workflow input and output (depth, cycles through YAML aliases), before any recursion.
  const problem = findJsonValueProblem(raw, MAX_CASE_DEPTH);
  if (problem !== undefined) {
    const where = problem.path === '' ? 'the top level' : problem.path;
    const message = problem.message.includes('nested') ? tooDeep(where) : `${where}: ${problem.message}`;
    return {name, file, ok: false, error: invalid(file, message)};
  }
  // A value still to be written (a recording could not hold it) fails the case until it is filled in.
  const unfilled = findPlaceholderPaths(raw);
  if (unfilled.length > 0) {
    const fields =
      unfilled.slice(0, 5).join(', ') + (unfilled.length > 5 ? ` and ${unfilled.length - 5} more` : '');
    return {
      name,
      file,
      ok: false,
      error: new StratosError(
        'STRATOS_TEST_CASE_NEEDS_VALUE',
        `The test case ${file} still holds ${NEEDS_VALUE} at ${fields}. Write the real value there (the warnings of 'stratos runs record' say what each one is), then run the case again.`,
        {details: {file, fields: unfilled}},
      ),
    };
  }
  const parsed = testCaseSchema.safeParse(expandPathPlaceholders(raw ?? {}, paths));
  if (!parsed.success) return {name, file, ok: false, error: invalid(file, z.prettifyError(parsed.error))};
  return {name, file, ok: true, testCase: parsed.data};
}

/** The paths (`agents[0].reply`) of every string that is the placeholder NEEDS_VALUE, or a key that is. */
function findPlaceholderPaths(value: unknown, path = ''): string[] {
  if (value === NEEDS_VALUE) return [path === '' ? '(the whole case)' : path];
  if (Array.isArray(value))
    return value.flatMap((item, index) => findPlaceholderPaths(item, `${path}[${index}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const at = path === '' ? key : `${path}.${key}`;
    return key === NEEDS_VALUE ? [at] : findPlaceholderPaths(item, at);
  });
}

function tooDeep(where: string): string {
  return `it nests mappings and lists more than ${MAX_CASE_DEPTH} levels deep at ${where}; a value in a case keeps to ${MAX_VALUE_DEPTH} levels, like workflow input and output. Flatten it.`;
}

/**
 * A case file's YAML as plain data, with the limits workflow.yaml has on aliases (manifest/yaml-aliases.ts): the
 * library's own conversion is quadratic in the number of aliases.
 */
function parseCaseYaml(text: string): {value: unknown} | {problem: string} {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {lineCounter, prettyErrors: false});
  const [error] = doc.errors;
  if (error !== undefined) {
    const {line, col} = lineCounter.linePos(error.pos[0]);
    return {
      problem: `it is not valid YAML at line ${line}, column ${col}: ${error.message.replace(/\.?\s*$/, '')}.`,
    };
  }
  const aliases = indexAliases(doc);
  const [problem] = aliases.problems;
  if (problem !== undefined) return {problem: aliasProblem(problem, lineCounter)};
  return {value: aliases.toJS(doc.contents)};
}

function aliasProblem(problem: AliasProblem, lineCounter: LineCounter): string {
  const {line, col} = lineCounter.linePos(problem.alias.range?.[0] ?? 0);
  const alias = `the alias '*${problem.alias.source}' at line ${line}, column ${col}`;
  switch (problem.kind) {
    case 'unresolved':
      return `${alias} has no '&${problem.alias.source}' anchor before it.`;
    case 'recursive':
      return `${alias} sits inside its own anchored value, so the value would contain itself.`;
    case 'too-many':
      return `it uses more than ${MAX_YAML_ALIASES.toLocaleString('en-US')} YAML aliases (${alias} is over the limit).`;
    case 'too-large':
      return `its aliases stand for more than ${MAX_YAML_ALIAS_VALUES.toLocaleString('en-US')} values in all once expanded (${alias} passes the limit).`;
  }
}

function invalid(file: string, problem: string, cause?: unknown): StratosError {
  return new StratosError(
    'STRATOS_TEST_CASE_INVALID',
    `The test case ${file} cannot be used: ${problem} Fix the file; docs/testing.md describes the format.`,
    {...(cause === undefined ? {} : {cause}), details: {file}},
  );
}
