// Which environment variables hold credentials: by name, and inside URL values. Ordinary variables stay readable.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
  credentialEnvironmentValues,
  isCredentialEnvironmentName,
} from '../../../src/telemetry/environment-secrets.ts';

/** name, value, the secrets it holds ([] for an ordinary variable). */
const table: [string, string, string[]][] = [
  ['GITHUB_TOKEN', 'ghp_0123456789abcdef', ['ghp_0123456789abcdef']],
  ['DB_PASS', 'hunter2hunter2', ['hunter2hunter2']],
  ['DB_PASSWORD', 'pw-9f8e7d6c', ['pw-9f8e7d6c']],
  ['MYSQL_PWD', 'pw-1a2b3c4d', ['pw-1a2b3c4d']],
  ['GH_PAT', 'github_pat_11ABCDEFG', ['github_pat_11ABCDEFG']],
  ['X_ACCESS_KEY_ID', 'AKIAIOSFODNN7EXAMPLE', ['AKIAIOSFODNN7EXAMPLE']],
  ['AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG', ['wJalrXUtnFEMI/K7MDENG']],
  ['STRIPE_KEY', 'sk_live_4eC39HqLyjWD', ['sk_live_4eC39HqLyjWD']],
  ['OPENAI_API_KEY', 'sk-proj-abcdef123456', ['sk-proj-abcdef123456']],
  ['AZURE_STORAGE_CONNECTION_STRING', 'AccountKey=abc123xyz==', ['AccountKey=abc123xyz==']],
  ['DATABASE_URL', 'postgres://app:S3cr%40tPass@db.internal:5432/app', ['S3cr%40tPass', 'S3cr@tPass']],
  ['REDIS_URL', 'redis://:r3dis-pass-77@cache:6379', ['r3dis-pass-77']],
  [
    'SENTRY_DSN',
    'https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/42',
    ['https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/42', '0123456789abcdef0123456789abcdef'],
  ],
  [
    'SLACK_WEBHOOK_URL',
    'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
    [
      'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      'XXXXXXXXXXXXXXXXXXXXXXXX',
    ],
  ],
  ['GIT_REMOTE', 'https://ghp_tokenInUserName0123@github.com/o/r.git', ['ghp_tokenInUserName0123']],
  ['EXPORT_URL', 'https://store.example/blob?sv=2024&sig=abcDEF%2B123&se=x', ['abcDEF+123']],
  ['HTTPS_PROXY', 'http://proxyuser:proxy-pass-1@proxy:3128', ['proxy-pass-1']],
  // Ordinary variables stay readable.
  ['PATH', '/usr/local/bin:/usr/bin:/bin', []],
  ['HOME', '/home/someone', []],
  ['PWD', '/work/project', []],
  ['OLDPWD', '/work', []],
  ['LANG', 'en_US.UTF-8', []],
  ['SHELL', '/bin/bash', []],
  ['TOKENIZERS_PARALLELISM', 'false', []],
  ['PASSED_TESTS', 'twelve-of-them', []],
  ['XDG_DATA_DIRS', '/usr/local/share:/usr/share', []],
  ['DATABASE_HOST', 'db.internal', []],
  ['ORIGIN_URL', 'https://example.com/a/very/long/path/segment/abcdefghijklmnop', []],
  ['APP_DB_URL', 'postgres://postgres@localhost/app', []],
  ['GITHUB_TOKEN_EMPTY', '', []],
];

for (const [name, value, secrets] of table) {
  test(`${name}=${value || "''"} holds ${secrets.length === 0 ? 'no secret' : secrets.join(', ')}`, () => {
    assert.deepEqual(credentialEnvironmentValues({[name]: value}).sort(), [...secrets].sort());
  });
}

test('credential names: words stand alone, `pwd` only after another word', () => {
  for (const name of ['DB_PASS', 'GH_PAT', 'SENTRY_DSN', 'SLACK_WEBHOOK_URL', 'X_ACCESS_KEY_ID', 'db_pwd'])
    assert.ok(isCredentialEnvironmentName(name), name);
  for (const name of ['PWD', 'PATH', 'PATTERN', 'COMPASS', 'BYPASS_CACHE', 'KEYBOARD', 'MONKEY', 'PASSED'])
    assert.ok(!isCredentialEnvironmentName(name), name);
});
