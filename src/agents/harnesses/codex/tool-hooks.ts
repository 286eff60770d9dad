/**
 * A before-tool hook for Codex's own tools, through Codex's native `PreToolUse` command hooks. Codex runs a command
 * before each local tool call (shell commands, `apply_patch` through the shell, `view_image`, sub-agent and goal
 * tools) with the call as JSON on stdin, and blocks the call when the command answers `permissionDecision: deny`.
 * Stratos writes that command (a small Node script, fail-closed: no answer from Stratos denies the call) into the
 * session's private folder and answers it from an HTTP listener on 127.0.0.1 inside the Stratos process, which
 * runs the agent's `beforeTool` hook. Every request carries a random bearer token known only to that script.
 *
 * What it cannot do, by Codex's design: allow a call with changed input (Codex ignores `updatedInput`), so a
 * `modify` decision for a built-in tool fails the execution instead of running the original input; and see
 * `web_search`, which runs at the model provider (registry `unguarded`). MCP tools are left to the MCP hook bridge,
 * which can also modify them.
 */
import {randomBytes} from 'node:crypto';
import {writeFile} from 'node:fs/promises';
import type {IncomingMessage, ServerResponse} from 'node:http';
import {join} from 'node:path';
import type {CodexOptions} from '@openai/codex-sdk';
import {applyBeforeTool} from '../../harness-kit/apply-tool-hooks.ts';
import type {AgentEvent, AgentHooks} from '../../harness-kit/hooks.ts';
import {HookFailure} from '../../harness-kit/hooks.ts';
import {startLoopbackListener} from '../../harness-kit/loopback-listener.ts';
import {describeToolCall} from '../../harness-kit/tool-call.ts';
import {codexTools} from './tools.ts';

export interface CodexToolHook {
  /** The `hooks` entry of Codex's configuration. */
  readonly config: NonNullable<CodexOptions['config']>;
  close(): Promise<void>;
}

export interface StartCodexToolHookOptions {
  beforeTool: NonNullable<AgentHooks['beforeTool']>;
  /** The session's private folder (mode 0700): the hook command is written there. */
  directory: string;
  emit: (event: AgentEvent) => void;
  /** The hook threw, or asked for what Codex cannot do: the running turn fails with it. */
  onHookFailure: (failure: HookFailure) => void;
}

/** How long Codex waits for the hook command; a person-facing hook may take a while. */
const hookTimeoutSeconds = 3600;

/** Codex's input to a `PreToolUse` command hook (the fields Stratos reads). */
interface PreToolUseInput {
  tool_name?: unknown;
  tool_input?: unknown;
  tool_use_id?: unknown;
}

export async function startCodexToolHook(options: StartCodexToolHookOptions): Promise<CodexToolHook> {
  const listener = await startLoopbackListener(async (request, response) => {
    if (request.method !== 'POST') response.writeHead(405).end();
    else await answer(request, response, options);
  });
  const script = join(options.directory, 'pre-tool-use.mjs');
  await writeFile(script, relayScript(`${listener.origin}/pre-tool-use`, listener.token), {mode: 0o600});
  return {
    config: {
      hooks: {
        PreToolUse: [
          {
            matcher: '*',
            hooks: [
              {type: 'command', command: `"${process.execPath}" "${script}"`, timeout: hookTimeoutSeconds},
            ],
          },
        ],
      },
    },
    close: () => listener.close(),
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  options: StartCodexToolHookOptions,
) {
  let input: PreToolUseInput;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as PreToolUseInput;
  } catch {
    reply(response, deny('Stratos could not read this tool call, so it was not run.'));
    return;
  }
  const toolName = typeof input.tool_name === 'string' ? input.tool_name : '';
  // MCP tools reach the MCP hook bridge, which runs the hooks (and can modify their input).
  if (toolName.startsWith('mcp__')) {
    reply(response, undefined);
    return;
  }
  // Codex reports its shell as `Bash`; hooks see Codex's own name for it, `shell`.
  const call = describeToolCall(
    codexTools,
    toolName === 'Bash' ? 'shell' : toolName,
    input.tool_input,
    undefined,
  );
  const id =
    typeof input.tool_use_id === 'string' ? input.tool_use_id : `hook-${randomBytes(4).toString('hex')}`;
  const outcome = await applyBeforeTool({beforeTool: options.beforeTool}, call);
  if (outcome.action === 'fail') {
    options.onHookFailure(outcome.failure);
    reply(response, deny('The beforeTool hook failed, so this call was not run.'));
    return;
  }
  if (outcome.action === 'run' && outcome.modified) {
    options.onHookFailure(
      new HookFailure(
        'beforeTool',
        new Error(
          `Codex cannot run its built-in tool '${call.nativeName}' with changed input, so the call was not run. Deny it with feedback instead; input changes work for MCP tools.`,
        ),
      ),
    );
    reply(response, deny('The call was not run: its input cannot be changed.'));
    return;
  }
  if (outcome.action === 'deny') {
    options.emit({type: 'tool.start', id, call});
    options.emit({type: 'tool.end', id, call, ok: false, decision: 'deny'});
    reply(response, deny(outcome.feedback.trim() === '' ? 'Denied by a beforeTool hook.' : outcome.feedback));
    return;
  }
  reply(response, undefined);
}

function deny(reason: string) {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  };
}

/** `undefined`: no output, which lets Codex run the call. */
function reply(response: ServerResponse, body: unknown): void {
  response
    .writeHead(200, {'content-type': 'application/json'})
    .end(body === undefined ? '' : JSON.stringify(body));
}

/**
 * The command Codex runs: stdin to Stratos, Stratos's answer to stdout. Anything but an answer denies the call, so
 * a Stratos that cannot be reached never lets a tool run unchecked.
 */
function relayScript(url: string, token: string): string {
  return `import {readFileSync} from 'node:fs';
const deny = (reason) => JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason}});
let out;
try {
  const response = await fetch(${JSON.stringify(url)}, {
    method: 'POST',
    headers: {authorization: ${JSON.stringify(`Bearer ${token}`)}, 'content-type': 'application/json'},
    body: readFileSync(0, 'utf8'),
  });
  out = response.ok ? await response.text() : deny('Stratos did not answer for this tool call (HTTP ' + response.status + '), so it was not run.');
} catch {
  out = deny('Stratos could not be reached to check this tool call, so it was not run.');
}
process.stdout.write(out);
`;
}
