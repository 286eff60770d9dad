/**
 * The settings of `harness: acp`: the agent process Stratos starts and speaks the Agent Client Protocol with.
 * `command` (required) and `args` name it, `env` adds variables to its environment (values may hold `{env:NAME}`
 * and `{file:path}` references, resolved when the session starts). The common settings that an ACP agent cannot
 * honour are refused here: `models` and `provider` (the agent owns its model and provider; `model` picks one only
 * where the agent offers a model choice) and `effort`.
 */

type Issue = {code: 'STRATOS_AGENT_CONFIG_INVALID'; field: string; message: string};

/** The process an ACP agent runs as, from its settings (validated). */
export interface AcpProcessSettings {
  command: string;
  args: string[];
  env: Record<string, string>;
}

const fields = ['command', 'args', 'env'] as const;

/** The ACP fields of validated settings. */
export function readAcpSettings(settings: Readonly<Record<string, unknown>>): AcpProcessSettings {
  return {
    command: settings.command as string,
    args: (settings.args as string[] | undefined) ?? [],
    env: (settings.env as Record<string, string> | undefined) ?? {},
  };
}

/** Every problem of an agent set to `harness: acp`; never throws. */
export function validateAcpSettings(
  settings: Readonly<Record<string, unknown>>,
  name: string,
  source: string,
): Issue[] {
  const issues: Issue[] = [];
  const add = (field: string, message: string) =>
    issues.push({code: 'STRATOS_AGENT_CONFIG_INVALID', field, message});
  const {command, args, env} = settings;
  if (command === undefined)
    add(
      'command',
      `Agent '${name}' uses harness 'acp' without a command; set command to the program that speaks the Agent Client Protocol on stdio, such as command: opencode with args: [acp].`,
    );
  else if (typeof command !== 'string' || command.trim() === '')
    add(
      'command',
      `The agent setting 'command' in ${source} must be a non-empty string (a program name or path).`,
    );
  if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')))
    add('args', `The agent setting 'args' in ${source} must be a list of strings.`);
  if (
    env !== undefined &&
    (typeof env !== 'object' ||
      env === null ||
      Array.isArray(env) ||
      !Object.values(env).every((value) => typeof value === 'string'))
  )
    add(
      'env',
      `The agent setting 'env' in ${source} must map variable names to strings (values may hold {env:NAME} or {file:path}).`,
    );
  for (const field of ['models', 'provider', 'effort'] as const) {
    if (settings[field] === undefined) continue;
    add(
      field,
      `Agent '${name}' sets ${field} with harness 'acp'; an ACP agent chooses its own ${field === 'effort' ? 'reasoning effort' : 'model and provider'}. Remove ${field}${field === 'effort' ? '' : ' (model picks one of the models the agent offers, where it offers a choice)'}.`,
    );
  }
  return issues;
}

/** The registry record's `settings`. */
export const acpSettings = {fields, validate: validateAcpSettings};
