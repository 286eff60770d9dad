/**
 * The providers whose OpenCode authentication Stratos can tell apart, with the variables OpenCode reads each one's
 * key from. OpenCode serves every provider, so a key for one (OPENAI_API_KEY) is no authentication for another
 * (Anthropic). Plain data: the harness registry reads it without loading the adapter.
 */
export const openCodeKeyVariables: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY'],
  openai: ['OPENAI_API_KEY'],
};

/** The providers in `openCodeKeyVariables`, in the order `stratos provider status` lists them. */
export const openCodeKeyProviders: readonly string[] = Object.keys(openCodeKeyVariables);
