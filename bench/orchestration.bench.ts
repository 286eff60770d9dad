// Code orchestration against a plain agent, on one realistic task: outlining a folder of this repository (a copy of
// its src/) through
// the real filesystem MCP server (@modelcontextprotocol/server-filesystem over stdio). Both run as Stratos
// workflows through the real CLI, with the real Claude Code binary against the same scripted Anthropic server:
//   (a) agent: one agent is given the MCP tools and asked to do the whole task; every tool result flows through
//       its context, and every step is a model request carrying the whole conversation so far;
//   (b) code:  the workflow calls the tools from code (as examples/repo-outline does) and gives an agent only the
//       compact outline to summarize, in one request.
// Recorded from the request bodies the server receives: model requests, tokens sent (a real tokenizer, see
// tokens.ts), and wall time of `stratos run`. The scripted model makes the comparison repeatable: it measures
// context volume and request count, not answer quality. It makes one tool call per turn; a model that batches
// parallel calls would need fewer requests in (a), though each still carries the tool results so far.
import {spawn} from 'node:child_process';
import {cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {
  type AnthropicReply,
  type AnthropicTurn,
  startAnthropicServer,
  toolCall,
} from '../test/servers/models/anthropic.ts';
import {summarize} from './measure.ts';
import {requestTokens, tokenizerName} from './tokens.ts';

const repo = join(import.meta.dirname, '..');
const cli = join(repo, 'bin', 'stratos.js');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const folders = (process.env.BENCH_FOLDERS ?? 'src/mcp/client,src/builder').split(',');
const base = mkdtempSync('/var/tmp/stratos-bench-orchestration-');

interface Call {
  name: string;
  input: Record<string, unknown>;
  result: string;
}

/** Every tool call of the conversation with its result text. */
function callsOf(turn: AnthropicTurn): Call[] {
  const calls: Call[] = [];
  const byId = new Map<string, Call>();
  for (const message of turn.body.messages as {content: unknown}[]) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Record<string, unknown>[]) {
      if (block.type === 'tool_use') {
        const call = {name: String(block.name), input: block.input as Record<string, unknown>, result: ''};
        calls.push(call);
        byId.set(String(block.id), call);
      } else if (block.type === 'tool_result') {
        const call = byId.get(String(block.tool_use_id));
        const content = block.content;
        if (call !== undefined)
          call.result =
            typeof content === 'string'
              ? content
              : (content as {text?: string}[]).map((c) => c.text ?? '').join('\n');
      }
    }
  }
  return calls;
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) =>
        line
          .replace(/^\s*(\/\*\*?|\*\/?|\/\/|#+)\s?/, '')
          .replace(/\s*\*\/\s*$/, '')
          .trim(),
      )
      .find((line) => line !== '') ?? ''
  );
}

/** A tool result's text: Claude Code hands structured content to the model as JSON (`{"content": "..."}`). */
function resultText(result: string): string {
  try {
    const parsed = JSON.parse(result) as {content?: unknown};
    return typeof parsed.content === 'string' ? parsed.content : result;
  } catch {
    return result;
  }
}

/** (a): the agent explores with the MCP tools, one call per turn, then writes the outline from what it read. */
function agentStep(turn: AnthropicTurn): AnthropicReply {
  const folder =
    /folder (\S+) of the repository/.exec(
      turn.body.messages[0] ? JSON.stringify(turn.body.messages[0]) : '',
    )?.[1] ?? 'src';
  const calls = callsOf(turn).filter((c) => c.name.startsWith('mcp__files__'));
  const allowed = calls.find((c) => c.name === 'mcp__files__list_allowed_directories');
  if (allowed === undefined) return toolCall(turn, 'mcp__files__list_allowed_directories', {});
  const root =
    resultText(allowed.result)
      .split('\n')
      .find((line) => line.startsWith('/')) ?? '';
  const path = join(root, folder);
  const listing = calls.find((c) => c.name === 'mcp__files__list_directory');
  if (listing === undefined) return toolCall(turn, 'mcp__files__list_directory', {path});
  const names = resultText(listing.result)
    .split('\n')
    .filter((line) => line.startsWith('[FILE] '))
    .map((line) => line.slice(7))
    .filter((name) => /\.(ts|md)$/.test(name));
  const reads = calls.filter((c) => c.name === 'mcp__files__read_text_file');
  const next = names.find((name) => !reads.some((r) => r.input.path === join(path, name)));
  if (next !== undefined)
    return toolCall(turn, 'mcp__files__read_text_file', {path: join(path, next), head: 8});
  const lines = reads.map(
    (r) => `- ${String(r.input.path).slice(path.length + 1)}: ${firstLine(resultText(r.result))}`,
  );
  return {text: `Outline of ${folder}:\n${lines.join('\n')}`};
}

const server = await startAnthropicServer((turn) => {
  if (turn.toolNames.length === 0) return {text: 'side'};
  if (turn.transcript.includes('OUTLINE-AGENT')) return agentStep(turn);
  if (turn.lastText.includes('OUTLINE-SUMMARY')) {
    const count = turn.lastText.split('\n').filter((line) => line.startsWith('- ')).length;
    return {text: `The folder holds ${count} files; each line above is its summary.`};
  }
  return {text: 'unexpected prompt'};
});

// The invocation directory holds a copy of the repository's src/: Claude Code hands its working directory to the
// filesystem server as its MCP roots, which replace the folders the server was started with, so both ways read
// the same copy.
const project = join(base, 'project');
cpSync(join(repo, 'src'), join(project, 'src'), {recursive: true});
const filesystem = join(
  repo,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);
const manifest = (name: string, agents: string) => `name: ${name}
shortDescription: Outlines a folder of the Stratos repository (${name}).
longDescription: Bench workflow.
version: "1.0.0"
mcp:
  servers:
    files:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(filesystem)}, ${JSON.stringify(project)}]
agents:
${agents}
`;

const agentWorkflow = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
export default workflow({
  input: z.strictObject({folder: z.string().describe('Folder relative to the repository root')}),
  output: z.object({text: z.string().describe('The outline')}),
  async run({folder}) {
    const prompt = 'OUTLINE-AGENT Outline the folder {{folder}} of the repository: list it with the files tools, read the first lines of each TypeScript and Markdown file, and return one line per file with its summary.';
    return {text: await createAgent('outliner').execute(prompt, {folder})};
  },
});
`;

// The code of examples/repo-outline, then one agent call that sees only the compact outline.
const codeWorkflow = `import {join} from 'node:path';
import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createFiles from './generated/mcp/files.js';
export default workflow({
  input: z.strictObject({folder: z.string().describe('Folder relative to the repository root')}),
  output: z.object({text: z.string().describe('The outline'), summary: z.string().describe('The agent summary')}),
  async run({folder}) {
    const files = await createFiles();
    const allowed = (await files.list_allowed_directories({})).structuredContent.content;
    const root = allowed.split('\\n').find((line) => line.startsWith('/')) ?? '';
    const path = join(root, folder);
    const listing = (await files.list_directory({path})).structuredContent.content.split('\\n');
    const names = listing.filter((l) => l.startsWith('[FILE] ')).map((l) => l.slice(7)).filter((n) => /\\.(ts|md)$/.test(n));
    const lines = await Promise.all(names.map(async (name) => {
      const text = (await files.read_text_file({path: join(path, name), head: 8})).structuredContent.content;
      const summary = text.split('\\n').map((l) => l.replace(/^\\s*(\\/\\*\\*?|\\*\\/?|\\/\\/|#+)\\s?/, '').replace(/\\s*\\*\\/\\s*$/, '').trim()).find((l) => l !== '') ?? '';
      return '- ' + name + ': ' + summary;
    }));
    const text = 'Outline of ' + folder + ':\\n' + lines.join('\\n');
    const summary = await createAgent('writer').execute('OUTLINE-SUMMARY Summarize this folder outline in one sentence.\\n' + lines.join('\\n'));
    return {text, summary};
  },
});
`;

const root = join(project, '.stratos', 'workflows');
for (const [name, agents, code] of [
  ['outline-agent', '  outliner:\n    harness: claude-code', agentWorkflow],
  ['outline-code', '  writer:\n    harness: claude-code\n    allowedMcps: []', codeWorkflow],
] as const) {
  mkdirSync(join(root, name), {recursive: true});
  writeFileSync(join(root, name, 'workflow.yaml'), manifest(name, agents));
  writeFileSync(join(root, name, 'workflow.ts'), code);
}
for (const dir of ['home', 'claude', 'tmp', 'stratos-home']) mkdirSync(join(base, dir), {recursive: true});
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: join(base, 'home'),
  TMPDIR: join(base, 'tmp'),
  CLAUDE_CONFIG_DIR: join(base, 'claude'),
  CLAUDE_CODE_TMPDIR: join(base, 'tmp'),
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  ANTHROPIC_BASE_URL: server.url,
  ANTHROPIC_API_KEY: 'sk-bench',
  STRATOS_HOME: join(base, 'stratos-home'),
  CI: '1',
};

function stratos(args: string[]): Promise<{ms: number; stdout: string}> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) =>
      code === 0
        ? resolve({ms: performance.now() - started, stdout})
        : reject(new Error(`stratos ${args.join(' ')} failed: ${stdout}${stderr}`)),
    );
  });
}

interface Sample {
  ms: number;
  requests: number;
  mainRequests: number;
  tokensSent: number;
  largestRequest: number;
  text: string;
}

async function runOnce(workflow: string, folder: string): Promise<Sample> {
  const from = server.modelRequests().length;
  const {ms, stdout} = await stratos([
    'run',
    join(root, workflow),
    '--input',
    JSON.stringify({folder}),
    '--json',
  ]);
  const requests = server.modelRequests().slice(from);
  const main = requests.filter((r) => Array.isArray((r.body as {tools?: unknown}).tools));
  const sizes = requests.map((r) => requestTokens(r.body));
  return {
    ms,
    requests: requests.length,
    mainRequests: main.length,
    tokensSent: sizes.reduce((a, b) => a + b, 0),
    largestRequest: Math.max(...sizes),
    text: JSON.parse(stdout).data.output.text,
  };
}

const report: Record<string, unknown> = {tokenizer: tokenizerName, rounds};
try {
  for (const name of ['outline-agent', 'outline-code']) await stratos(['build', name, '--json']);
  console.log(`Tokenizer: ${tokenizerName}; ${rounds} rounds; median wall time of stratos run.\n`);
  for (const folder of folders) {
    const samples: Record<string, Sample[]> = {'outline-agent': [], 'outline-code': []};
    await runOnce('outline-agent', folder); // warm-up: file caches, first binary start
    await runOnce('outline-code', folder);
    for (let round = 0; round < rounds; round++) {
      for (const name of ['outline-agent', 'outline-code']) samples[name]!.push(await runOnce(name, folder));
    }
    const a = samples['outline-agent']!;
    const b = samples['outline-code']!;
    // Both ways must produce the same outline, or the comparison means nothing.
    if (a[0]!.text !== b[0]!.text)
      throw new Error(`the two outlines differ:\n${a[0]!.text}\n---\n${b[0]!.text}`);
    const files = a[0]!.text.split('\n').length - 1;
    const row = (label: string, s: Sample[]) => {
      const t = summarize(
        label,
        s.map((x) => x.ms),
      );
      return {
        label,
        requests: s[0]!.requests,
        mainRequests: s[0]!.mainRequests,
        tokensSent: s[0]!.tokensSent,
        largestRequest: s[0]!.largestRequest,
        medianMs: Math.round(t.medianMs),
      };
    };
    const rows = [
      row('(a) agent with the MCP tools', a),
      row('(b) code calls the tools, agent summarizes', b),
    ];
    console.log(`${folder} (${files} files):`);
    for (const r of rows) {
      console.log(
        `  ${r.label.padEnd(44)} ${String(r.requests).padStart(3)} model requests (${r.mainRequests} main), ${String(r.tokensSent).padStart(7)} tokens sent (largest request ${r.largestRequest}), ${r.medianMs} ms`,
      );
    }
    const [ra, rb] = rows as [(typeof rows)[0], (typeof rows)[0]];
    console.log(
      `  ratio a/b: ${(ra.tokensSent / rb.tokensSent).toFixed(1)}x tokens, ${(ra.requests / rb.requests).toFixed(1)}x requests, ${(ra.medianMs / rb.medianMs).toFixed(1)}x wall time\n`,
    );
    report[folder] = {files, rows};
  }
} finally {
  await server.close();
  rmSync(base, {recursive: true, force: true});
}
mkdirSync(join(import.meta.dirname, '.results'), {recursive: true});
writeFileSync(
  join(import.meta.dirname, '.results', `orchestration-${new Date().toISOString().replaceAll(':', '')}.json`),
  `${JSON.stringify(report, null, 2)}\n`,
);
