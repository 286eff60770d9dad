/**
 * A temporary TypeScript project for compiling generated wrappers with the real compiler: a stub
 * `@stratoscli/stratos/mcp` package, the wrappers under generated/mcp/ and consumer files.
 */
import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import type {McpToolSnapshot} from '../../../../src/mcp/codegen/index.ts';

const repoRoot = resolve(import.meta.dirname, '../../../..');
const tscPath = join(repoRoot, 'node_modules/.bin/tsc');

/** The runtime surface generated wrappers are written against, as the stub package declares it. */
const runtimeDeclarations = `export type JsonSchemaObject = {readonly [keyword: string]: unknown};
export interface McpToolSnapshot {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
}
export interface McpContentBlock {
  type: string;
  [key: string]: unknown;
}
export interface McpToolResult {
  content: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: {[key: string]: unknown};
}
export interface McpServerConnection {
  callTool(name: string, args: Record<string, unknown> | undefined): Promise<McpToolResult>;
}
export declare function connectMcpServer(options: {
  server: string;
  tools: readonly McpToolSnapshot[];
}): Promise<McpServerConnection>;
`;

// The stub records every connection and call on globalThis so a test can run a wrapper for real.
const runtimeImplementation = `export async function connectMcpServer(options) {
  const log = (globalThis.__stratosStubLog ??= []);
  log.push({connect: options.server, tools: options.tools});
  return {
    async callTool(name, args) {
      log.push({call: name, args});
      return {content: [{type: 'text', text: name}], structuredContent: {called: name}};
    },
  };
}
`;

/** One diagnostic line of tsc output. */
export interface TscDiagnostic {
  file: string;
  line: number;
  code: string;
  message: string;
}

/** What a compiler run reported. */
export interface TscResult {
  exitCode: number | null;
  output: string;
  diagnostics: TscDiagnostic[];
}

/** A temporary project; `dispose` removes it. */
export interface WrapperProject {
  dir: string;
  /** Writes `generated/mcp/<server>.ts`-style or consumer files, relative to the project. */
  write(path: string, text: string): void;
  read(path: string): string;
  /** Type-checks the given project files with the real compiler, without emitting. */
  compile(files: readonly string[], extraFlags?: readonly string[]): TscResult;
  dispose(): void;
}

/** Creates a project with package.json `"type": "module"` and the stub runtime package installed. */
export function createWrapperProject(): WrapperProject {
  const dir = mkdtempSync(join(tmpdir(), 'stratos-codegen-'));
  const write = (path: string, text: string) => {
    const file = join(dir, path);
    mkdirSync(dirname(file), {recursive: true});
    writeFileSync(file, text);
  };
  write('package.json', JSON.stringify({name: 'consumer', private: true, type: 'module'}));
  const stub = 'node_modules/@stratoscli/stratos';
  write(
    `${stub}/package.json`,
    JSON.stringify({
      name: '@stratoscli/stratos',
      version: '0.0.0-stub',
      type: 'module',
      exports: {'./mcp': {types: './mcp.d.ts', default: './mcp.js'}},
    }),
  );
  write(`${stub}/mcp.d.ts`, runtimeDeclarations);
  write(`${stub}/mcp.js`, runtimeImplementation);
  return {
    dir,
    write,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    compile: (files, extraFlags = []) => runTsc(dir, files, extraFlags),
    dispose: () => rmSync(dir, {recursive: true, force: true}),
  };
}

function runTsc(dir: string, files: readonly string[], extraFlags: readonly string[]): TscResult {
  const flags = ['--ignoreConfig', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
  flags.push('--target', 'es2022', '--skipLibCheck', '--noEmit', '--pretty', 'false', ...extraFlags);
  const run = spawnSync(tscPath, [...flags, ...files], {cwd: dir, encoding: 'utf8'});
  if (run.error !== undefined) throw run.error;
  const output = `${run.stdout}${run.stderr}`;
  const diagnostics: TscDiagnostic[] = [];
  for (const match of output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/gm)) {
    diagnostics.push({file: match[1]!, line: Number(match[2]), code: match[3]!, message: match[4]!});
  }
  return {exitCode: run.status, output, diagnostics};
}

/** The AgentStack tool exactly as its server declares it (fixture copied from the specification). */
export function loadAgentStackTool(): McpToolSnapshot {
  const path = join(repoRoot, 'test/fixtures/mcp-codegen/agentstack-execute.json');
  return JSON.parse(readFileSync(path, 'utf8')) as McpToolSnapshot;
}
