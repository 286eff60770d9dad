// Live: OpenCode on direct Azure OpenAI through its azure provider (the same variables as the Codex target; the
// key is handed to OpenCode as AZURE_API_KEY, the resource as AZURE_RESOURCE_NAME).
import {azureDeployment, azureResourceName, missingAzure} from './azure.ts';
import {defineLiveChecks} from './live-checks.ts';

const resource = azureResourceName();
defineLiveChecks({
  label: 'opencode (azure)',
  harness: 'opencode',
  model: `azure/${azureDeployment}`,
  unavailable:
    missingAzure() ??
    (resource === undefined
      ? 'OpenCode needs the Azure resource name: set AZURE_RESOURCE_NAME (AZURE_OPENAI_BASE_URL is not <name>.openai.azure.com)'
      : undefined),
  env: {AZURE_API_KEY: process.env.AZURE_OPENAI_API_KEY ?? '', AZURE_RESOURCE_NAME: resource ?? ''},
});
