import type {OllamaStatus} from '../../api/ollama-status.ts';
import type {ConfiguredAgentStatus} from '../../api/probe-configured-agents.ts';
import {readProviderStatus} from '../../api/provider-status.ts';
import type {CommandContext, CommandHandler} from './command.ts';

export const providerStatusCommand: CommandHandler = async (_command, context) => {
  const result = await readProviderStatus({cwd: context.cwd, env: context.env});
  const lines: string[] = [];
  for (const harness of result.harnesses) {
    const installed = harness.installed
      ? context.paint('installed', 'green')
      : `${context.paint('not installed', 'red')} (${harness.install})`;
    lines.push(`${context.paint(harness.harness, 'bold')}  ${installed}`);
    lines.push(
      harness.authentication.configured
        ? `  authentication: ${context.paint('configured', 'green')}`
        : `  authentication: ${context.paint('not configured', 'red')}: ${harness.authentication.guidance}`,
    );
    for (const provider of harness.providers) {
      const catalog = provider.catalog;
      const text =
        catalog.status === 'reachable'
          ? `${catalog.modelCount} models${catalog.complete === true ? '' : ' (partial listing)'}`
          : catalog.status === 'none'
            ? 'no catalog with this setup (an API key enables it); availability stays unknown'
            : `${context.paint('error', 'red')}: ${catalog.error?.message}`;
      const own = provider.authentication;
      if (own !== undefined)
        lines.push(
          own.configured
            ? `  ${provider.provider} authentication: ${context.paint('configured', 'green')}`
            : `  ${provider.provider} authentication: ${context.paint('not configured', 'red')}${own.guidance === undefined ? '' : `: ${own.guidance}`}`,
        );
      lines.push(`  ${provider.provider} catalog: ${text}`);
    }
    for (const agent of harness.agents ?? []) lines.push(describeConfiguredAgent(agent, context.paint));
    lines.push('');
  }
  lines.push(...describeOllama(result.ollama, context.paint), '');
  lines.push(`Model identities: Models.dev ${result.modelCatalogRevision}`);
  const ready = result.harnesses.filter((h) => h.installed && h.authentication.configured).length;
  return {
    ok: true,
    message: `${ready} of ${result.harnesses.length} harnesses ready`,
    data: result,
    warnings: [],
    human: `${lines.join('\n')}\n`,
  };
};

/** One configured agent of a harness that starts its own program (ACP): what the program answered. */
function describeConfiguredAgent(agent: ConfiguredAgentStatus, paint: CommandContext['paint']): string {
  const name = `  agent ${agent.workflow}/${agent.agent} (${[agent.command, ...((agent.args as string[] | undefined) ?? [])].join(' ')})`;
  if (!agent.answered)
    return `${name}: ${paint(agent.installed ? 'no answer' : 'not installed', 'red')}: ${agent.error}`;
  const info = agent.agentInfo as {name: string; version: string} | undefined;
  const caps = (agent.capabilities ?? {}) as Record<string, boolean>;
  const offered = Object.entries(caps)
    .filter(([, on]) => on)
    .map(([capability]) => capability);
  return `${name}: ${paint('answers', 'green')}${info === undefined ? '' : ` as ${info.name} ${info.version}`}; advertises ${offered.join(', ') || 'nothing optional'}`;
}

/** The Ollama section: endpoint, version, each model with its capabilities and advertised context, guidance. */
function describeOllama(ollama: OllamaStatus, paint: CommandContext['paint']): string[] {
  const where = ollama.endpoint === undefined ? '' : ` ${ollama.endpoint} (${ollama.source})`;
  const state = ollama.reachable
    ? `${paint('running', 'green')}, version ${ollama.version}`
    : paint(
        ollama.error?.code === 'STRATOS_OLLAMA_ENDPOINT_INVALID' ? 'invalid endpoint' : 'not running',
        'red',
      );
  const lines = [`${paint('ollama', 'bold')}${where}  ${state}`];
  if (!ollama.reachable && ollama.error !== undefined) lines.push(`  ${ollama.error.message}`);
  for (const model of ollama.models) {
    const context = model.contextLength === undefined ? '' : `, context ${model.contextLength} advertised`;
    const agent = model.agentReady ? paint('agent-ready', 'green') : 'not for agents';
    lines.push(
      `  ${model.name}: ${model.capabilities.join(', ') || 'no capabilities listed'}${context} (${agent})`,
    );
  }
  if (ollama.models.length > 0) lines.push(`  ${ollama.contextNote}`);
  if (ollama.guidance !== undefined) lines.push(`  ${ollama.guidance}`);
  return lines;
}
