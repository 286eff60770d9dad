/**
 * Test cases: files beside a workflow, `<workflow>/tests/<case>.yaml` (or `.yml`, `.json`), one case each. A case
 * is an input, what the run must produce (`output`, a partial `match`, or an `error` code) and the scripted
 * answers its agents, decisions and MCP servers get. The format is documented in docs/testing.md.
 */
import {readdir} from 'node:fs/promises';
import {extname, join} from 'node:path';
import {LineCounter, parseDocument} from 'yaml';
import {z} from 'zod';
import {errorCodes, StratosError} from '../errors/index.ts';
import {isNotFound} from '../internal/json-file.ts';
import {NotRegularFileError, readRegularFile} from '../internal/regular-file.ts';
import {
  type AliasProblem,
  indexAliases,
  MAX_YAML_ALIAS_VALUES,
  MAX_YAML_ALIASES,
} from '../manifest/yaml-aliases.ts';

export const CASES_FOLDER = 'tests';
const caseExtensions = new Set(['.yaml', '.yml', '.json']);

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
  arguments: z.record(z.string(), z.unknown()).optional(),
  result: z.looseObject({
    content: z.array(z.unknown()).default([]),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean().optional(),
  }),
});

const decisionScript = z.strictObject({
  decision: z.string().min(1),
  workflow: z.string().min(1).optional(),
  answers: z.record(z.string(), z.unknown()),
});

/**
 * A child workflow's scripted result: the child is then not run (its input and output are still validated by its
 * own contract). `input`, when given, must equal what the parent passes; `error` makes the child fail with that code.
 */
const childScript = z
  .strictObject({
    child: z.string().min(1),
    workflow: z.string().min(1).optional(),
    input: z.record(z.string(), z.unknown()).optional(),
    output: z.record(z.string(), z.unknown()).optional(),
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
    input: z.record(z.string(), z.unknown()).default({}),
    output: z.record(z.string(), z.unknown()).optional(),
    match: z.record(z.string(), z.unknown()).optional(),
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

/** The case files of a workflow folder, by name; an absent `tests/` folder is no cases. */
export async function readTestCases(directory: string): Promise<CaseFile[]> {
  const folder = join(directory, CASES_FOLDER);
  let names: string[];
  try {
    // Every entry named like a case, whatever it is: a FIFO, a directory or a symbolic link is then reported by
    // readTestCase (it reads regular files only), not silently skipped.
    names = (await readdir(folder)).filter((name) => caseExtensions.has(extname(name))).sort();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  return Promise.all(names.map((file) => readTestCase(join(folder, file))));
}

export async function readTestCase(file: string): Promise<CaseFile> {
  const name = file.slice(file.lastIndexOf('/') + 1, -extname(file).length);
  let raw: unknown;
  try {
    const text = readRegularFile(file).toString('utf8');
    if (extname(file) === '.json') raw = JSON.parse(text);
    else {
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
  const parsed = testCaseSchema.safeParse(raw ?? {});
  if (!parsed.success) return {name, file, ok: false, error: invalid(file, z.prettifyError(parsed.error))};
  return {name, file, ok: true, testCase: parsed.data};
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
