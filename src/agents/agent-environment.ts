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
