// Live: Codex on direct Azure OpenAI (AZURE_OPENAI_API_KEY, AZURE_OPENAI_BASE_URL or AZURE_RESOURCE_NAME, and the
// deployment name in AZURE_OPENAI_DEPLOYMENT).
import {azureDeployment, missingAzure} from './azure.ts';
import {defineLiveChecks} from './live-checks.ts';

defineLiveChecks({
  label: 'codex (azure)',
  harness: 'codex',
  provider: 'azure',
  model: azureDeployment,
  unavailable: missingAzure(),
});
