/**
 * Test helpers around a temporary project whose workflow uses the OAuth test servers: the workflow, the stored
 * credentials, and the canary check (no secret or token in any output or run artifact).
 */
import assert from 'node:assert/strict';
import {readdir, readFile, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {CliResult} from '../../helpers/run-cli.ts';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

/** A workflow that records that its body ran (in TEST_MARKER, when set) and echoes its input. */
export const markerWorkflow = `import {writeFileSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text to echo')}),
  output: z.object({echo: z.string().describe('The text')}),
  run({text}) {
    if (process.env.TEST_MARKER) writeFileSync(process.env.TEST_MARKER, 'ran');
    return {echo: text};
  },
});
`;

export interface OAuthProject extends TempProject {
  /** Every CLI result of the project, for the canary check. */
  results: CliResult[];
  run(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  credentialsFile: string;
  readCredentials(): Promise<{version: number; records: Record<string, unknown>[]}>;
  /** Sets expiresAt of every record to now + seconds. */
  setExpiry(seconds: number): Promise<void>;
}

/** `authYaml`: the lines under `auth:` after `type: oauth` (indented by 8 spaces), such as `clientId: x`. */
export async function createOAuthProject(
  mcpUrl: string,
  options: {authYaml?: string[]; name?: string; extraServers?: string} = {},
): Promise<OAuthProject> {
  const project = await createTempProject('stratos-oauth-');
  const name = options.name ?? 'uses-stratum';
  const auth = ['        type: oauth', ...(options.authYaml ?? []).map((line) => `        ${line}`)].join(
    '\n',
  );
  await project.writeWorkflow(name, {
    'workflow.yaml': manifest(
      name,
      `mcp:\n  servers:\n    stratum:\n      type: http\n      url: ${mcpUrl}\n      auth:\n${auth}\n${options.extraServers ?? ''}`,
    ),
    'workflow.ts': markerWorkflow,
  });
  const results: CliResult[] = [];
  const credentialsFile = join(project.home, 'credentials.json');
  const readCredentials = async () => JSON.parse(await readFile(credentialsFile, 'utf8'));
  return {
    ...project,
    results,
    credentialsFile,
    async run(args, env = {}) {
      const result = await project.cli(args, {env});
      results.push(result);
      return result;
    },
    readCredentials,
    async setExpiry(seconds) {
      const data = await readCredentials();
      for (const record of data.records) record.expiresAt = Math.floor(Date.now() / 1000) + seconds;
      await writeFile(credentialsFile, JSON.stringify(data), {mode: 0o600});
    },
  };
}

/** Asserts that no secret appears in the project's CLI output or in any file under its runs/ folder. */
export async function assertNoSecretsLeaked(
  project: OAuthProject,
  secrets: readonly string[],
): Promise<void> {
  const values = secrets.filter((secret) => secret.length >= 6);
  assert.ok(values.length > 0, 'the canary check needs at least one secret');
  const texts: {where: string; text: string}[] = project.results.flatMap((result, index) => [
    {where: `stdout of CLI call ${index}`, text: result.stdout},
    {where: `stderr of CLI call ${index}`, text: result.stderr},
  ]);
  for (const file of await listFiles(join(project.home, 'runs'))) {
    texts.push({where: file, text: await readFile(file, 'utf8')});
  }
  for (const {where, text} of texts) {
    for (const secret of values) assert.ok(!text.includes(secret), `a secret value appears in ${where}`);
  }
}

/** Every token and secret value of the stored records. */
export async function storedSecrets(project: OAuthProject): Promise<string[]> {
  const data = await project.readCredentials();
  return data.records.flatMap((record) =>
    ['accessToken', 'refreshToken', 'clientSecret']
      .map((key) => record[key])
      .filter((v): v is string => typeof v === 'string'),
  );
}

async function listFiles(folder: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry);
    if ((await stat(path)).isDirectory()) files.push(...(await listFiles(path)));
    else files.push(path);
  }
  return files;
}
