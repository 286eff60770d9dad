// Parent cleanup cancels a child's pending sign-in: the child's workflow-start authentication waits for a browser
// that never completes; the parent ends; the child is cancelled at once (not after the five-minute timeout), its
// body never runs and its callback listener is closed.
import assert from 'node:assert/strict';
import {chmod, readFile, writeFile} from 'node:fs/promises';
import {connect} from 'node:net';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {manifest} from '../../helpers/temp-project.ts';
import {type OAuthTestServers, startOAuthServers} from '../../servers/oauth/index.ts';
import {createOAuthProject, type OAuthProject} from '../../servers/oauth/project.ts';

let oauth: OAuthTestServers;
let project: OAuthProject;

before(async () => {
  oauth = await startOAuthServers();
  project = await createOAuthProject(oauth.mcpUrl, {name: 'child'});
  await project.writeWorkflow('parent', {
    'workflow.yaml': manifest('parent'),
    'workflow.ts': `import {existsSync, writeFileSync} from 'node:fs';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createChild from '../.generated/child.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({waited: z.boolean().describe('Whether the child sign-in was seen pending')}),
  async run() {
    void createChild()
      .execute({text: 'never'})
      .catch((error) => writeFileSync(process.env.CHILD_ERROR!, \`\${error.code} \${error.details?.code}\`));
    // End while the child's sign-in is pending: its browser was opened (the URL recorded) and never finishes.
    for (let i = 0; i < 200 && !existsSync(process.env.URL_FILE!); i++) await new Promise((r) => setTimeout(r, 100));
    return {waited: existsSync(process.env.URL_FILE!)};
  },
});
`,
  });
});

after(async () => {
  await project?.remove();
  await oauth?.close();
});

test("a parent that ends cancels its child's pending sign-in and the listener closes", async () => {
  const urlFile = join(project.cwd, 'browser-url.txt');
  const browser = join(project.cwd, 'record-url.sh');
  await writeFile(browser, `#!/bin/sh\nprintf '%s' "$1" > '${urlFile}'\n`);
  await chmod(browser, 0o755);
  const childError = join(project.cwd, 'child-error.txt');
  const marker = join(project.cwd, 'child-body-ran.txt');
  const started = Date.now();
  const result = await project.run(['run', 'parent', '--input', '{}', '--json'], {
    BROWSER: browser,
    URL_FILE: urlFile,
    CHILD_ERROR: childError,
    TEST_MARKER: marker,
  });
  assert.equal(result.exitCode, 0, result.stderr);
  assert.deepEqual(result.json.data.output, {waited: true});
  assert.ok(Date.now() - started < 60_000, 'cancelled, not timed out');
  const [code, cause] = (await readFile(childError, 'utf8')).split(' ');
  assert.equal(code, 'STRATOS_WORKFLOW_CHILD_FAILED');
  assert.match(cause!, /^STRATOS_AUTH_/);
  await assert.rejects(readFile(marker), 'the child body never ran');

  const redirect = new URL(new URL(await readFile(urlFile, 'utf8')).searchParams.get('redirect_uri')!);
  const refused = await new Promise<boolean>((resolve) => {
    const socket = connect(Number(redirect.port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
  assert.ok(refused, `the callback listener on port ${redirect.port} is closed`);
});
