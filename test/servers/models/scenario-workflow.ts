/**
 * One test workflow that runs an agent scenario chosen by its input, for both harnesses. Built once per test
 * file; each `stratos run` picks a scenario. Results and caught errors come back as JSON text in `result`.
 */
import {manifest} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../mcp/index.ts';

/**
 * The `broken` server starts only while this file exists: the build (which lists every server's tools) creates it
 * and removes it afterwards, so at run time the server exits at once, as a misconfigured one does.
 */
export function buildOnlyFlag(callLog: string): string {
  return `${callLog}.build-only`;
}

export function scenarioManifest(
  harness: 'claude-code' | 'codex' | 'opencode' | 'acp',
  callLog: string,
  provider?: 'ollama',
  agentSettings = '',
): string {
  // Codex's default model leaves tool definitions out of the request; a model without catalog metadata lists them.
  // OpenCode names models <provider>/<model>; with OPENAI_BASE_URL, openai/ is the scripted server. An Ollama agent
  // names the installed model as Ollama does.
  const model =
    provider === 'ollama'
      ? '\n    provider: ollama\n    model: qwen3:8b'
      : harness === 'codex'
        ? '\n    model: gpt-test'
        : harness === 'opencode'
          ? '\n    model: openai/gpt-test'
          : '';
  // The agents that get a beforeTool hook keep only built-in tools that hook can see (STRATOS_AGENT_HOOK_UNGUARDED):
  // Codex's hosted web search, and every built-in tool of OpenCode, are out of its sight.
  const guarded =
    harness === 'codex'
      ? '\n    disallowedTools: [web search]'
      : harness === 'opencode'
        ? '\n    disallowedTools: [bash, edit, glob, grep, read, skill, task, todowrite, webfetch, write]'
        : '';
  return manifest(
    'agent-scenarios',
    `mcp:
  servers:
    counter:
      type: stdio
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
      env:
        STRATOS_TEST_CALL_LOG: ${JSON.stringify(callLog)}
    slowcounter:
      type: stdio
      command: /bin/sh
      args: ['-c', 'sleep 3; exec "$0" "$@"', ${JSON.stringify(process.execPath)}, ${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
      env:
        STRATOS_TEST_CALL_LOG: ${JSON.stringify(callLog)}
    broken:
      type: stdio
      command: /bin/sh
      args: ['-c', 'if [ -e "$0" ]; then exec "$@"; fi; echo this server cannot start >&2; exit 3', ${JSON.stringify(buildOnlyFlag(callLog))}, ${JSON.stringify(process.execPath)}, ${JSON.stringify(SERVE_SCRIPT)}, counter, --stdio]
agents:
  main:
    harness: ${harness}${model}${guarded}${agentSettings}
    systemPrompt: {template: prompts/system.hbs, variables: {role: tester}}
    allowedMcps: [counter]
  plain:
    harness: ${harness}${model}${agentSettings}
    allowedMcps: []
  slow:
    harness: ${harness}${model}${guarded}${agentSettings}
    allowedMcps: [slowcounter]
  broken:
    harness: ${harness}${model}${agentSettings}
    allowedMcps: [broken]
`,
  );
}

/** The folder, relative to the invocation directory, that the `working-directory` scenario's agent works in. */
export const agentFolder = 'agent-folder';

export const scenarioWorkflow = `import {rmSync, writeFileSync} from 'node:fs';
import {AgentRunError, createAgent, isStratosError, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

const failure = (error: unknown) => ({
  code: isStratosError(error) ? error.code : 'not-a-stratos-error',
  name: (error as Error).name,
  message: (error as Error).message,
  cancelled: error instanceof AgentRunError ? error.cancelled : undefined,
});

async function attempt<T>(fn: () => Promise<T>) {
  try {
    return {ok: true, value: await fn()};
  } catch (error) {
    return {ok: false, error: failure(error)};
  }
}

/** Resolves once the scripted model server is streaming a response to a request that contains marker. */
async function inFlight(marker: string): Promise<void> {
  const base = process.env.STRATOS_TEST_MODEL_SERVER;
  if (base === undefined) throw new Error('STRATOS_TEST_MODEL_SERVER is not set');
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const {streams} = (await (await fetch(base + '/__test/open-streams')).json()) as {streams: string[]};
    if (streams.some((body) => body.includes(marker))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no model request with ' + marker + ' was in flight within two minutes');
}

const answer = z.object({answer: z.string().describe('The answer')});

async function scenario(name: string): Promise<unknown> {
  switch (name) {
    case 'text':
      return createAgent('plain').execute('TEXT say hello');
    case 'continue': {
      const agent = createAgent('main');
      const first = await agent.execute('CONT first {{word}}', {word: 'alpha'});
      const second = await agent.execute('CONT second');
      return {first, second};
    }
    case 'mcp':
      return createAgent('main').execute('MCP call the echo tool');
    case 'mcp-slow':
      return createAgent('slow').execute('MCP call the echo tool of slowcounter');
    case 'mcp-slow-hooked':
      return createAgent('slow', {hooks: {beforeTool: () => undefined}}).execute('MCP call the echo tool of slowcounter');
    case 'mcp-broken':
      return attempt(() => createAgent('broken').execute('TEXT with a broken server'));
    case 'structured-ok':
      return attempt(() => createAgent('plain', {outputSchema: answer}).execute('STRUCT_OK'));
    case 'structured-bad':
      return attempt(() => createAgent('plain', {outputSchema: answer}).execute('STRUCT_BAD'));
    case 'hook-deny':
      return createAgent('main', {
        hooks: {beforeTool: (call) => (call.mcp?.tool === 'echo' ? {action: 'deny', feedback: 'DENIED-BY-HOOK'} : undefined)},
      }).execute('MCP call the echo tool');
    case 'hook-modify':
      return createAgent('main', {
        hooks: {beforeTool: (call) => ({action: 'modify', input: {...call.input, text: 'MODIFIED-BY-HOOK'}})},
      }).execute('MCP call the echo tool');
    case 'hook-throws':
      return attempt(() =>
        createAgent('main', {hooks: {beforeTool: () => { throw new Error('hook exploded'); }}}).execute('MCP call the echo tool'),
      );
    case 'hook-withhold': {
      const seen: unknown[] = [];
      const text = await createAgent('main', {
        hooks: {
          afterTool: (call) => {
            seen.push({nativeName: call.nativeName, mcp: call.mcp, input: call.input});
            return call.mcp?.tool === 'echo' ? {action: 'withhold', feedback: 'WITHHELD-BY-HOOK'} : undefined;
          },
        },
      }).execute('MCP call the echo tool');
      return {text, seen};
    }
    case 'lifecycle': {
      const events: unknown[] = [];
      const hooks = {
        onStart: (e: {agent: string; harness: string; prompt: string}) =>
          void events.push({hook: 'start', agent: e.agent, harness: e.harness, prompt: e.prompt}),
        onComplete: (e: {output: unknown}) => void events.push({hook: 'complete', output: e.output}),
        onError: (e: {error: unknown}) =>
          void events.push({hook: 'error', code: isStratosError(e.error) ? e.error.code : 'other'}),
      };
      const ok = await attempt(() => createAgent('plain', {hooks}).execute('TEXT lifecycle'));
      const failing = {...hooks, beforeTool: () => { throw new Error('hook exploded'); }};
      const failed = await attempt(() => createAgent('main', {hooks: failing}).execute('MCP call the echo tool'));
      const reportingFails = {...failing, onError: () => { throw new Error('reporting exploded'); }};
      const both = await attempt(() => createAgent('main', {hooks: reportingFails}).execute('MCP call the echo tool'));
      return {ok, failed, both, events};
    }
    case 'overlap': {
      const agent = createAgent('plain');
      const slow = agent.execute('SLOW answer slowly');
      const overlapping = await attempt(() => agent.execute('TEXT again'));
      return {overlapping, slow: await slow, after: await agent.execute('TEXT after')};
    }
    case 'cancel': {
      const agent = createAgent('plain');
      const pending = agent.execute('HANG forever');
      await inFlight('HANG forever');
      agent.cancel();
      const cancelled = await attempt(() => pending);
      const after = await attempt(() => agent.execute('TEXT after cancel'));
      return {cancelled, after};
    }
    case 'no-bash':
      return createAgent('plain', {disallowedTools: ['bash', 'WebFetch']}).execute('TEXT NOBASH');
    case 'missing-variable':
      return attempt(() => createAgent('plain').execute({text: 'Hello {{name}}'}, {}));
    case 'unknown-mcp':
      return attempt(async () => createAgent('plain', {allowedMcps: ['nope']}));
    case 'no-auth':
      return attempt(() => createAgent('plain').execute('TEXT hello'));
    case 'admission': {
      const agents = [1, 2, 3, 4].map(() => createAgent('plain'));
      const results = await Promise.all(agents.map((agent, i) => attempt(() => agent.execute('SLOW admission ' + i))));
      return results;
    }
    case 'working-directory': {
      const before = process.cwd();
      const text = await createAgent('plain', {workingDirectory: '${agentFolder}'}).execute('TEXT WORKDIR');
      return {before, after: process.cwd(), text};
    }
    case 'retry-start': {
      // The broken server starts only while its flag file exists (STRATOS_TEST_START_FLAG names it).
      const flag = process.env.STRATOS_TEST_START_FLAG;
      if (flag === undefined) throw new Error('STRATOS_TEST_START_FLAG is not set');
      const agent = createAgent('broken');
      const first = await attempt(() => agent.execute('TEXT first start'));
      writeFileSync(flag, '');
      try {
        return {first, second: await attempt(() => agent.execute('TEXT second start'))};
      } finally {
        rmSync(flag, {force: true});
      }
    }
    case 'fail-while-running': {
      const agent = createAgent('plain');
      void agent.execute('HANG forever').catch(() => {});
      await inFlight('HANG forever');
      throw new Error('workflow failed while its agent was running');
    }
    default:
      throw new Error('unknown scenario ' + name);
  }
}

export default workflow({
  input: z.strictObject({scenario: z.string().describe('Which scenario to run')}),
  output: z.object({result: z.string().describe('The scenario result as JSON text')}),
  async run({scenario: name}) {
    return {result: JSON.stringify(await scenario(name))};
  },
});
`;
