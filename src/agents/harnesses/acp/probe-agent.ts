/**
 * `stratos provider status` for one configured ACP agent: is its command installed, does it answer `initialize`,
 * and what it advertises (its name and version, loadSession, MCP over HTTP and SSE, prompt content). The program
 * starts with the environment of the status call plus the literal values of the agent's `env` (references are not
 * resolved, so no secret is read), gets `initialize` and nothing else, and is stopped.
 */
import {StratosError} from '../../../errors/stratos-error.ts';
import {importHarnessSdk} from '../../harness-kit/import-harness-sdk.ts';
import {startAcpAgentProcess} from './agent-process.ts';
import {describeError} from './failures.ts';
import {acpSdk} from './sdk.ts';
import {readAcpSettings} from './settings.ts';

/** What one ACP agent answered. */
export type AcpAgentProbe = {
  command: string;
  args: string[];
  /** The program started (false: not found or not executable). */
  installed: boolean;
  /** It answered `initialize`. */
  answered: boolean;
  agentInfo?: {name: string; version: string};
  protocolVersion?: number;
  capabilities?: {
    loadSession: boolean;
    mcpHttp: boolean;
    mcpSse: boolean;
    image: boolean;
    audio: boolean;
    embeddedContext: boolean;
  };
  /** Why it did not answer, as a whole sentence. */
  error?: string;
};

const probeTimeoutMs = 60_000;
const reference = /\{(env|file):[^{}]*\}/;

/** Starts the agent of `settings` (validated), asks `initialize`, stops it. Never throws. */
export async function probeAcpAgent(
  settings: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string>>,
  cwd: string,
): Promise<AcpAgentProbe> {
  const {command, args, env: extra} = readAcpSettings(settings);
  const literal = Object.fromEntries(Object.entries(extra).filter(([, value]) => !reference.test(value)));
  const base = {command, args};
  let sdk: typeof import('@agentclientprotocol/sdk');
  try {
    sdk = await importHarnessSdk('acp', acpSdk, () => import('@agentclientprotocol/sdk'));
  } catch (error) {
    return {...base, installed: false, answered: false, error: describeError(error)};
  }
  const agent = startAcpAgentProcess({command, args, cwd, env: {...env, ...literal}});
  const connection = sdk.client({name: 'stratos'}).connect(sdk.ndJsonStream(agent.input, agent.output));
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      connection.agent.request('initialize', {protocolVersion: sdk.PROTOCOL_VERSION, clientCapabilities: {}}),
      agent.exited.then((reason) => Promise.reject(probeFailure(`${reason}.`))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(probeFailure(`it did not answer initialize within ${probeTimeoutMs / 1000} s.`)),
          probeTimeoutMs,
        );
      }),
    ]);
    const caps = answer.agentCapabilities ?? {};
    return {
      ...base,
      installed: true,
      answered: true,
      ...(answer.agentInfo == null
        ? {}
        : {agentInfo: {name: answer.agentInfo.name, version: answer.agentInfo.version}}),
      protocolVersion: answer.protocolVersion,
      capabilities: {
        loadSession: caps.loadSession === true,
        mcpHttp: caps.mcpCapabilities?.http === true,
        mcpSse: caps.mcpCapabilities?.sse === true,
        image: caps.promptCapabilities?.image === true,
        audio: caps.promptCapabilities?.audio === true,
        embeddedContext: caps.promptCapabilities?.embeddedContext === true,
      },
    };
  } catch (error) {
    const message = describeError(error);
    const installed = !/was not found|could not start/.test(message);
    const tail = agent.stderrTail();
    return {
      ...base,
      installed,
      answered: false,
      error: `The ACP agent '${command}' did not answer initialize: ${message}${tail === '' ? '' : ` Its stderr ends with: ${tail.slice(-500)}`}`,
    };
  } finally {
    clearTimeout(timer);
    connection.close();
    await agent.stop();
  }
}

/** Why the probe got no answer (only its message is reported). */
function probeFailure(message: string): StratosError {
  return new StratosError('STRATOS_AGENT_INIT_FAILED', message, {details: {harness: 'acp'}});
}
