import {readProviderStatus} from '../../api/provider-status.ts';
import type {CommandHandler} from '../command.ts';

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
    lines.push('');
  }
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
