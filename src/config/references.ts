/**
 * `{env:NAME}` and `{file:path}` references in configuration values (MCP headers and stdio environment,
 * telemetry headers). A value may mix literal text and references: `Bearer {env:GITHUB_TOKEN}`. Errors name the
 * reference and the field, never a resolved value.
 */
import {registerCredentialSecret, StratosError} from '../errors/index.ts';
import {resolveConfiguredPath} from '../internal/configured-path.ts';
import {NotRegularFileError, readRegularFile} from '../internal/regular-file.ts';

export interface ReferenceOptions {
  /** Relative `{file:...}` paths resolve here: the workflow directory. */
  directory: string;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** What holds the value, for messages: `header 'Authorization' of MCP server 'github'`. */
  field: string;
}

const referencePattern = /\{(env|file):([^{}]*)\}/g;
const envNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `value` contains at least one `{env:...}` or `{file:...}` reference. */
export function hasReferences(value: string): boolean {
  referencePattern.lastIndex = 0;
  const found = referencePattern.test(value);
  // `test` on a global pattern moves lastIndex, and `matchAll` starts from it: leave it where resolving starts.
  referencePattern.lastIndex = 0;
  return found;
}

/**
 * Replaces every reference in `value`. A file's content is used without its trailing line break.
 *
 * @throws StratosError `STRATOS_CONFIG_REFERENCE_INVALID`, `STRATOS_CONFIG_ENV_MISSING`,
 *   `STRATOS_CONFIG_FILE_MISSING`, `STRATOS_CONFIG_FILE_NOT_REGULAR`, `STRATOS_CONFIG_FILE_PERMISSIONS`.
 * @example
 * await resolveReferences('Bearer {env:GITHUB_TOKEN}', {directory, field: "header 'Authorization'"});
 */
export async function resolveReferences(value: string, options: ReferenceOptions): Promise<string> {
  const env = options.env ?? process.env;
  const parts: string[] = [];
  let last = 0;
  for (const match of value.matchAll(referencePattern)) {
    const [whole, kind, target] = match as unknown as [string, 'env' | 'file', string];
    parts.push(value.slice(last, match.index));
    last = match.index + whole.length;
    const secret =
      kind === 'env' ? readEnv(target, env, options.field) : await readSecretFile(target, options);
    // Every resolved value is a secret for the whole process: no output channel may show it (see Redactor).
    registerCredentialSecret(secret);
    parts.push(secret);
  }
  parts.push(value.slice(last));
  return parts.join('');
}

/** {@link resolveReferences} over every value of a map (header or environment maps). */
export async function resolveReferenceMap(
  values: Readonly<Record<string, string>> | undefined,
  options: Omit<ReferenceOptions, 'field'> & {field: (key: string) => string},
): Promise<Record<string, string>> {
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    resolved[key] = await resolveReferences(value, {...options, field: options.field(key)});
  }
  return resolved;
}

/** Where a `{file:path}` reference points: absolute, `~/` (home directory) or relative to `directory`. */
export const resolveReferencePath = resolveConfiguredPath;

function readEnv(name: string, env: NodeJS.ProcessEnv, field: string): string {
  if (!envNamePattern.test(name)) {
    throw new StratosError(
      'STRATOS_CONFIG_REFERENCE_INVALID',
      `The reference {env:${name}} in ${field} does not name an environment variable; use {env:NAME} with letters, digits and _.`,
      {details: {reference: `{env:${name}}`}},
    );
  }
  const value = env[name];
  if (value === undefined) {
    throw new StratosError(
      'STRATOS_CONFIG_ENV_MISSING',
      `The environment variable ${name}, referenced as {env:${name}} in ${field}, is not set. Set it before running Stratos.`,
      {details: {reference: `{env:${name}}`}},
    );
  }
  return value;
}

async function readSecretFile(target: string, options: ReferenceOptions): Promise<string> {
  const reference = `{file:${target}}`;
  if (target.trim() === '') {
    throw new StratosError(
      'STRATOS_CONFIG_REFERENCE_INVALID',
      `The reference ${reference} in ${options.field} has no path; use {file:path}.`,
      {details: {reference}},
    );
  }
  const path = resolveReferencePath(target, options.directory);
  let text: string;
  try {
    text = readRegularFile(path, {
      // Secret files are owner-only; POSIX modes only (Windows has no group/other bits to check).
      check: ({mode}) => {
        if (process.platform === 'win32' || (mode & 0o077) === 0) return;
        throw new StratosError(
          'STRATOS_CONFIG_FILE_PERMISSIONS',
          `The secret file ${path}, referenced as ${reference} in ${options.field}, is accessible to group or others (mode ${(mode & 0o777).toString(8)}). Run 'chmod 600 ${path}'.`,
          {details: {reference, path}},
        );
      },
    }).toString('utf8');
  } catch (error) {
    if (error instanceof StratosError) throw error;
    if (error instanceof NotRegularFileError) {
      throw new StratosError(
        'STRATOS_CONFIG_FILE_NOT_REGULAR',
        `The path ${path}, referenced as ${reference} in ${options.field}, is ${error.kind}, not a regular file. Point the reference at a file holding the value, with owner-only permissions (chmod 600).`,
        {cause: error, details: {reference, path, kind: error.kind}},
      );
    }
    throw new StratosError(
      'STRATOS_CONFIG_FILE_MISSING',
      `The file ${path}, referenced as ${reference} in ${options.field}, cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}). Create it with owner-only permissions (chmod 600).`,
      {cause: error, details: {reference, path}},
    );
  }
  return text.replace(/\r?\n$/, '');
}
