/** The direct Azure OpenAI set-up the Codex and OpenCode live targets share, or why it is missing. */
import {missingVariables} from './live-checks.ts';

export const azureDeployment = process.env.AZURE_OPENAI_DEPLOYMENT ?? '';

export function missingAzure(): string | undefined {
  const endpoint =
    (process.env.AZURE_OPENAI_BASE_URL ?? '') !== '' || (process.env.AZURE_RESOURCE_NAME ?? '') !== ''
      ? undefined
      : 'no Azure OpenAI endpoint: neither AZURE_OPENAI_BASE_URL nor AZURE_RESOURCE_NAME is set';
  return (
    missingVariables(['AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_DEPLOYMENT'], 'no Azure OpenAI credentials') ??
    endpoint
  );
}

/** The resource name OpenCode's azure provider needs, from AZURE_RESOURCE_NAME or the base URL's host. */
export function azureResourceName(): string | undefined {
  if ((process.env.AZURE_RESOURCE_NAME ?? '') !== '') return process.env.AZURE_RESOURCE_NAME;
  const base = process.env.AZURE_OPENAI_BASE_URL ?? '';
  return /^https:\/\/([^.]+)\.openai\.azure\.com/.exec(base)?.[1];
}
