/**
 * Hosted model identities (`anthropic/claude-sonnet-4-5`, `openai/gpt-5`) and their provider-native ids, from the
 * compact mapping generated from the pinned Models.dev snapshot. Identity is not availability: a mapping says what
 * a provider calls a model, never that the user may use it or which efforts it supports.
 */

/** A hosted identity split into its creator and model (`openai/gpt-5` → `{creator: 'openai', model: 'gpt-5'}`). */
export interface ModelIdentity {
  identity: string;
  creator: string;
  model: string;
}

/** Parses `<creator>/<model>`; undefined for text of another shape (a native id such as `gpt-5`). */
export function parseModelIdentity(text: string): ModelIdentity | undefined {
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) return undefined;
  return {identity: text, creator: text.slice(0, slash), model: text.slice(slash + 1)};
}

/** The native model id `provider` uses for `identity`, or undefined when the snapshot links none. */
export async function resolveNativeModelId(identity: string, provider: string): Promise<string | undefined> {
  const {modelIdentities} = await import('./model-identities.ts');
  return Object.hasOwn(modelIdentities, identity) ? modelIdentities[identity]![provider] : undefined;
}

/** The Models.dev revision of the shipped mapping (for `provider status` and docs). */
export async function readModelCatalogRevision(): Promise<string> {
  return (await import('./model-identities.ts')).modelCatalogRevision;
}
