// Context economy: how many tokens Stratos puts in front of an agent. Counted with a real tokenizer (see
// tokens.ts), from the real built CLI's output and from the request bodies the real harness binaries send to a
// scripted model server. Targets: `stratos --help` (command summary plus SKILL.md) under 3,000 tokens,
// one `list --json` catalog entry under 60, and 0 tokens added to each request of a plain agent.
import {spawn, spawnSync} from 'node:child_process';
import {cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {query} from '@anthropic-ai/claude-agent-sdk';
import {Codex} from '@openai/codex-sdk';
import {startAnthropicServer} from '../test/servers/models/anthropic.ts';
import {startResponsesServer} from '../test/servers/models/openai-responses.ts';
import {requestTokens, tokenizerName, tokens} from './tokens.ts';

const repo = join(import.meta.dirname, '..');
const cli = join(repo, 'bin', 'stratos.js');
const base = mkdtempSync('/var/tmp/stratos-bench-context-');
const results: Record<string, unknown> = {tokenizer: tokenizerName};

function stratos(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (result.status !== 0)
    throw new Error(`stratos ${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** The same, without blocking this process's event loop (the scripted model servers run in it). */
function stratosAsync(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']});
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`stratos ${args.join(' ')} failed: ${stdout}${stderr}`)),
    );
  });
}

function row(label: string, count: number, target?: string): void {
  console.log(
    `${label.padEnd(58)} ${String(count).padStart(6)} tokens${target === undefined ? '' : `  (${target})`}`,
  );
}

try {
  console.log(`Tokenizer: ${tokenizerName}\n`);
  // 1. Root help: the command summary, then the bundled skill.
  const help = stratos(['--help'], repo);
  const skill = readFileSync(join(repo, 'skills', 'stratos-workflows', 'SKILL.md'), 'utf8');
  const summary = help.slice(0, help.indexOf(skill));
  const frontmatter = skill.slice(0, skill.indexOf('\n---\n', 4) + 5);
  results.help = {
    total: tokens(help),
    summary: tokens(summary),
    skill: tokens(skill),
    frontmatter: tokens(frontmatter),
  };
  row(
    'stratos --help (total)',
    tokens(help),
    `target under 3,000: ${tokens(help) < 3000 ? 'met' : 'missed'}`,
  );
  row('  command summary', tokens(summary));
  row('  SKILL.md', tokens(skill), 'Agent Skills recommend under 5,000');
  row('  SKILL.md frontmatter (what an agent sees before loading it)', tokens(frontmatter), 'about 100');

  // 2. One catalog entry of `list --json`: the four examples in one discovery root.
  const project = join(base, 'project');
  const root = join(project, '.stratos', 'workflows');
  mkdirSync(root, {recursive: true});
  for (const name of readdirSync(join(repo, 'examples'), {withFileTypes: true})) {
    if (!name.isDirectory()) continue;
    cpSync(join(repo, 'examples', name.name), join(root, name.name), {
      recursive: true,
      filter: (path) => !/\/(dist|generated|node_modules)(\/|$)/.test(path),
    });
  }
  const env = {...process.env, STRATOS_HOME: join(base, 'stratos-home'), CI: '1'};
  const list = JSON.parse(stratos(['list', '--json'], project, env));
  // Where an entry's tokens go: the selection text itself ({name, shortDescription}) and the rest (version, the
  // absolute directory, root, build state, diagnostics).
  const entries = (list.data.workflows as {name: string; shortDescription: string; directory: string}[]).map(
    (entry) => ({
      name: entry.name,
      tokens: tokens(JSON.stringify(entry)),
      selection: tokens(JSON.stringify({name: entry.name, shortDescription: entry.shortDescription})),
      directory: tokens(JSON.stringify({directory: entry.directory})),
    }),
  );
  results.list = {envelope: tokens(JSON.stringify(list)), entries};
  row('list --json, whole envelope for 4 workflows', tokens(JSON.stringify(list)));
  for (const entry of entries) {
    row(
      `  one entry: ${entry.name}`,
      entry.tokens,
      `target under 60: ${entry.tokens < 60 ? 'met' : 'missed'}`,
    );
    row(`    of which {name, shortDescription}`, entry.selection);
    row(`    of which "directory": <absolute path>`, entry.directory);
  }

  // 3. describe --json of each example (the manual plus both schemas).
  const described: Record<string, number> = {};
  for (const entry of entries) {
    const out = stratos(['describe', `./examples/${entry.name}`, '--json'], repo, env);
    described[entry.name] = tokens(out.trim());
    row(`describe --json ${entry.name}`, described[entry.name]!);
  }
  results.describe = described;

  // 4. Tokens Stratos adds to each request of a plain agent (no system prompt, no MCP), per harness: the first
  // model request of a conversation through Stratos against the same harness's SDK used directly.
  results.added = await measureAddedTokens();
} finally {
  rmSync(base, {recursive: true, force: true});
}
mkdirSync(join(import.meta.dirname, '.results'), {recursive: true});
writeFileSync(
  join(
    import.meta.dirname,
    '.results',
    `context-economy-${new Date().toISOString().replaceAll(':', '')}.json`,
  ),
  `${JSON.stringify(results, null, 2)}\n`,
);

async function measureAddedTokens(): Promise<
  Record<string, {direct: number; stratos: number; added: number}>
> {
  const anthropic = await startAnthropicServer(() => ({text: 'ok'}));
  const openai = await startResponsesServer(() => ({text: 'ok'}));
  const dir = join(base, 'agents');
  for (const sub of ['home', 'claude', 'codex', 'tmp', 'work', 'stratos-home'])
    mkdirSync(join(dir, sub), {recursive: true});
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: join(dir, 'home'),
    TMPDIR: join(dir, 'tmp'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    CLAUDE_CODE_TMPDIR: join(dir, 'tmp'),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CODEX_HOME: join(dir, 'codex'),
    ANTHROPIC_BASE_URL: anthropic.url,
    ANTHROPIC_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: `${openai.url}/v1`,
    OPENAI_API_KEY: 'sk-bench',
    STRATOS_HOME: join(dir, 'stratos-home'),
    CI: '1',
  };
  const cwd = join(dir, 'work');
  const prompt = 'Say ok.';
  const out: Record<string, {direct: number; stratos: number; added: number}> = {};
  try {
    // Claude Code directly: the SDK with the isolation a careful caller would use.
    let from = anthropic.modelRequests().length;
    for await (const message of query({
      prompt,
      options: {cwd, env, settingSources: [], strictMcpConfig: true, mcpServers: {}},
    })) {
      if (message.type === 'result') break;
    }
    const direct = firstMain(anthropic.modelRequests().slice(from));
    // Through Stratos: a workflow with one plain agent, run by the real CLI.
    from = anthropic.modelRequests().length;
    await runPlainAgent('claude-code', cwd, env, prompt);
    const via = firstMain(anthropic.modelRequests().slice(from));
    out['claude-code'] = {
      direct: requestTokens(direct),
      stratos: requestTokens(via),
      added: requestTokens(via) - requestTokens(direct),
    };

    from = openai.modelRequests().length;
    const codex = new Codex({
      env,
      config: {
        analytics: {enabled: false},
        features: {plugins: false},
        model_provider: 'stratos_openai',
        model_providers: {
          stratos_openai: {
            name: 'OpenAI (OPENAI_BASE_URL)',
            base_url: env.OPENAI_BASE_URL!,
            env_key: 'OPENAI_API_KEY',
            wire_api: 'responses',
          },
        },
      },
    });
    await codex
      .startThread({
        workingDirectory: cwd,
        skipGitRepoCheck: true,
        approvalPolicy: 'never',
        sandboxMode: 'workspace-write',
      })
      .run(prompt);
    const directCodex = firstMain(openai.modelRequests().slice(from));
    from = openai.modelRequests().length;
    await runPlainAgent('codex', cwd, env, prompt);
    const viaCodex = firstMain(openai.modelRequests().slice(from));
    out.codex = {
      direct: requestTokens(directCodex),
      stratos: requestTokens(viaCodex),
      added: requestTokens(viaCodex) - requestTokens(directCodex),
    };
  } finally {
    await anthropic.close();
    await openai.close();
  }
  for (const [harness, figures] of Object.entries(out)) {
    row(`plain agent request, ${harness}: direct SDK`, figures.direct);
    row(`plain agent request, ${harness}: through Stratos`, figures.stratos);
    row(
      `  added by Stratos, ${harness}`,
      figures.added,
      `target 0: ${figures.added <= 0 ? 'met' : 'missed'}`,
    );
  }
  console.log('OpenCode: not measured (no OpenCode harness in this build).');
  return out;
}

/** The first request of the conversation (Claude Code also sends side requests without tools). */
function firstMain(requests: {body: unknown}[]): unknown {
  const main = requests.find(
    (r) => Array.isArray((r.body as {tools?: unknown}).tools) || 'input' in (r.body as object),
  );
  if (main === undefined) throw new Error('no model request of the conversation reached the server');
  return main.body;
}

async function runPlainAgent(
  harness: 'claude-code' | 'codex',
  cwd: string,
  env: Record<string, string>,
  prompt: string,
): Promise<void> {
  const folder = join(cwd, '.stratos', 'workflows', `plain-${harness}`);
  mkdirSync(folder, {recursive: true});
  writeFileSync(
    join(folder, 'workflow.yaml'),
    `name: plain-${harness}\nshortDescription: One plain agent turn.\nlongDescription: Bench.\nversion: "1.0.0"\nagents:\n  plain:\n    harness: ${harness}\n`,
  );
  writeFileSync(
    join(folder, 'workflow.ts'),
    `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
export default workflow({
  input: z.strictObject({prompt: z.string().describe('')}),
  output: z.object({text: z.string().describe('')}),
  async run({prompt}) {
    return {text: await createAgent('plain').execute(prompt)};
  },
});
`,
  );
  await stratosAsync(['run', `plain-${harness}`, '--input', JSON.stringify({prompt}), '--json'], cwd, env);
}
