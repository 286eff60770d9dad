/**
 * `model` on an ACP agent: the agent owns its model unless it offers a choice, as a session configuration option of
 * category `model` (`session/new`'s `configOptions`). The model must be one of that option's values; an agent with
 * no such option, or without that value, is refused before the first prompt.
 */
import {acpInitFailure} from './failures.ts';

interface ConfigOption {
  id: string;
  type?: string;
  category?: string | null;
  options?: unknown[];
}

/** Selects `model` through the agent's model option. @throws StratosError STRATOS_AGENT_INIT_FAILED */
export async function selectAcpModel(options: {
  agent: string;
  command: string;
  model: string;
  configOptions: readonly unknown[];
  set: (configId: string, value: string) => Promise<unknown>;
}): Promise<void> {
  const option = (options.configOptions as ConfigOption[]).find(
    (candidate) => candidate.category === 'model' && candidate.type === 'select',
  );
  if (option === undefined)
    throw acpInitFailure(
      options.agent,
      `model is set to '${options.model}', but the agent '${options.command}' offers no model choice (no session configuration option of category model); it uses its own model. Remove model, or set the model in the agent's own configuration.`,
    );
  const values = listValues(option.options ?? []);
  if (!values.includes(options.model))
    throw acpInitFailure(
      options.agent,
      `model is set to '${options.model}', which the agent '${options.command}' does not offer; it offers ${values.map((value) => `'${value}'`).join(', ') || 'none'}.`,
    );
  await options.set(option.id, options.model);
}

/** The values of a select option, its groups flattened. */
function listValues(entries: readonly unknown[]): string[] {
  return entries.flatMap((entry) => {
    const item = entry as {value?: unknown; options?: unknown[]};
    if (Array.isArray(item.options)) return listValues(item.options);
    return typeof item.value === 'string' ? [item.value] : [];
  });
}
