/**
 * Which environment variables hold credentials. Two rules, both applied to the whole environment of the process:
 * a variable whose name says it is a credential (`GITHUB_TOKEN`, `DB_PASS`, `GH_PAT`, `AWS_ACCESS_KEY_ID`,
 * `SENTRY_DSN`, `SLACK_WEBHOOK_URL`, `STRIPE_KEY` ...) is a secret as a whole, and a URL-valued variable of any name
 * gives up the credentials it carries (`postgres://user:PASSWORD@host`, a token as the user name, a `?token=`
 * parameter). Ordinary variables (`PATH`, `HOME`, `PWD`, `LANG`) stay readable.
 */
import {registerCredentialSecret} from '../errors/credential-secrets.ts';
import {isCredentialKey} from './redaction.ts';

/** A token used as a URL's user name (`https://<key>@sentry.io/1`) is at least this long; `postgres@` is a user. */
const MIN_TOKEN_USER_LENGTH = 16;
/** A path segment of a credential URL (a webhook's `/services/T0/B0/<secret>`) that may be the secret itself. */
const MIN_SECRET_SEGMENT_LENGTH = 16;

/** `*_KEY` names are keys in environments (`STRIPE_KEY`, `ENCRYPTION_KEY`), unlike record keys (`cache_key`). */
const keyName = /[._-]keys?$/i;
/** Query parameters that carry a signature or a key (`?sig=` of a shared-access URL, `?key=`). */
const credentialParameter = /^(sig|signature|key|code)$/i;

/** Whether an environment variable's name says its value is a credential. */
export function isCredentialEnvironmentName(name: string): boolean {
  return isCredentialKey(name) || keyName.test(name);
}

/** Every secret value the environment holds, by the two rules above (empty values are none). */
export function credentialEnvironmentValues(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    const named = isCredentialEnvironmentName(name);
    if (named) values.push(value);
    values.push(...urlCredentials(value, named));
  }
  return values;
}

/**
 * The credentials inside a URL value: the password of its user information (or the user name alone, when it is long
 * enough to be a token), values of credential-named query parameters, and, for a variable named as a credential (a
 * webhook), each long path segment, since the path is the secret there. Each in the form written and decoded.
 */
function urlCredentials(value: string, named: boolean): string[] {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) return [];
  const url = URL.parse(value.trim());
  if (url === null) return [];
  const found: string[] = [];
  if (url.password !== '') found.push(url.password);
  else if (url.username.length >= MIN_TOKEN_USER_LENGTH) found.push(url.username);
  for (const [parameter, item] of url.searchParams) {
    if (isCredentialKey(parameter) || credentialParameter.test(parameter)) found.push(item);
  }
  if (named) {
    for (const segment of url.pathname.split('/'))
      if (segment.length >= MIN_SECRET_SEGMENT_LENGTH) found.push(segment);
  }
  return found.flatMap((item) => {
    const decoded = safeDecode(item);
    return decoded === item ? [item] : [item, decoded];
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Registers the environment's credential values as secrets of the process, as every run's artifacts do. */
export function registerEnvironmentSecrets(env: NodeJS.ProcessEnv): void {
  for (const value of credentialEnvironmentValues(env)) registerCredentialSecret(value);
}
