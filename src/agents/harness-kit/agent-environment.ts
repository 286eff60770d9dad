/**
 * The environment a harness process receives: the user's environment as it is (provider credentials and endpoints
 * such as ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL included), minus what is
 * Stratos's own business. Isolation from native MCP and settings files is done by each adapter's native options.
 */

const stratosOnly = /^STRATOS_/;

export function createHarnessEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && !stratosOnly.test(key)) result[key] = value;
  }
  return result;
}

/**
 * Hosted provider credentials and endpoints (`*_API_KEY`, `*_AUTH_TOKEN`, `*_BASE_URL`, `CODEX_API_KEY`, ...):
 * removed from the environment of a harness that runs on a local Ollama model, so none is read or sent.
 */
const hostedCredential =
  /(_API_KEY|_AUTH_TOKEN|_OAUTH_TOKEN|_ACCESS_TOKEN|_BASE_URL)$|^(AZURE_RESOURCE_NAME|OPENAI_ORG_ID|OPENAI_PROJECT_ID)$/;

/** `env` without hosted provider credentials and endpoints (OLLAMA_HOST and everything else stay). */
export function withoutHostedCredentials(env: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !hostedCredential.test(name)));
}
