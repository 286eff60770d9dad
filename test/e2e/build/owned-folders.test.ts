// Nothing the author wrote is deleted: an entrypoint inside a folder Stratos owns is a located manifest error, a
// module imported from one fails the build at that file, and the build's clearing of dist/ and `stratos clean` delete
// only what Stratos wrote (the output ledger, the generated-file header), never an authored file left there.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';

let project: TempProject;

const importing = (specifier: string) => `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import {helper} from '${specifier}';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text to echo')}),
  output: z.object({echo: z.string().describe('The text')}),
  run({text}) {
    return {echo: helper(text)};
  },
});
`;
const helperSource = 'export const helper = (text: string): string => text.toUpperCase();\n';

before(async () => {
  project = await createTempProject('stratos-owned-folders-');
});

after(() => project.remove());

for (const entry of ['dist/main.ts', 'generated/main.ts', 'Dist/main.ts']) {
  test(`entrypoint ${entry} is a located manifest error, and build and clean keep the file`, async () => {
    const name = `entry-${entry.split('/')[0]!.toLowerCase()}${entry.startsWith('D') ? '-upper' : ''}`;
    const directory = await project.writeWorkflow(name, {
      'workflow.yaml': manifest(name, `entrypoint: ${entry}\n`),
      [entry]: echoWorkflow,
    });
    for (const args of [
      ['build', name, '--json'],
      ['clean', name, '--json'],
      ['build', name, '--json'],
    ]) {
      const result = await project.cli(args);
      if (args[0] === 'build') {
        assert.equal(result.exitCode, 1, result.stdout);
        const diagnostic = result.json.error.details.workflows[0].diagnostics[0];
        assert.equal(diagnostic.code, 'STRATOS_MANIFEST_ENTRYPOINT_INVALID', result.stdout);
        assert.deepEqual(diagnostic.location, {file: join(directory, 'workflow.yaml'), line: 5, column: 13});
        assert.match(diagnostic.message, /a folder Stratos writes and clears/);
      }
      assert.equal(await readFile(join(directory, entry), 'utf8'), echoWorkflow, `${args[0]} kept ${entry}`);
    }
  });
}

for (const folder of ['dist', 'generated']) {
  test(`a module imported from ${folder}/ fails the build at that file, and neither build nor clean deletes it`, async () => {
    const name = `imports-${folder}`;
    const directory = await project.writeWorkflow(name, {
      'workflow.yaml': manifest(name),
      'workflow.ts': importing(`./${folder}/helper.js`),
      [`${folder}/helper.ts`]: helperSource,
      [`${folder}/notes.txt`]: 'my notes\n',
    });
    const helper = join(directory, folder, 'helper.ts');
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await project.cli(['build', name, '--json']);
      assert.equal(result.exitCode, 1, result.stdout);
      assert.equal(result.json.error.code, 'STRATOS_BUILD_AUTHORED_IN_OWNED_FOLDER', result.stdout);
      const diagnostic = result.json.error.details.workflows[0].diagnostics.find(
        (d: {code: string}) => d.code === 'STRATOS_BUILD_AUTHORED_IN_OWNED_FOLDER',
      );
      assert.equal(diagnostic.location.file, helper);
      assert.equal(await readFile(helper, 'utf8'), helperSource, `build ${attempt + 1} kept the helper`);
    }
    const cleaned = await project.cli(['clean', name, '--json']);
    assert.equal(cleaned.exitCode, 0, cleaned.stdout);
    assert.deepEqual(
      cleaned.json.warnings
        .map((w: {code: string; location: {file: string}}) => [w.code, w.location.file])
        .sort(),
      [
        ['STRATOS_BUILD_OWNED_FILE_KEPT', helper],
        ['STRATOS_BUILD_OWNED_FILE_KEPT', join(directory, folder, 'notes.txt')],
      ],
    );
    assert.equal(await readFile(helper, 'utf8'), helperSource, 'clean kept the helper');
    assert.equal(await readFile(join(directory, folder, 'notes.txt'), 'utf8'), 'my notes\n');
  });
}

test('a rebuild and clean delete what the compiler wrote into dist/ and keep a file someone added', async () => {
  const directory = await project.writeWorkflow('stray', {
    'workflow.yaml': manifest('stray'),
    'workflow.ts': echoWorkflow,
  });
  const built = await project.cli(['build', 'stray', '--json']);
  assert.equal(built.exitCode, 0, built.stdout);
  const stray = join(directory, 'dist', 'keep-me.ts');
  await project.write(
    join('.stratos', 'workflows', 'stray', 'dist', 'keep-me.ts'),
    'export const mine = 1;\n',
  );
  const rebuilt = await project.cli(['build', 'stray', '--force', '--json']);
  assert.equal(rebuilt.exitCode, 0, rebuilt.stdout);
  assert.equal(await readFile(stray, 'utf8'), 'export const mine = 1;\n', 'a rebuild keeps it');
  const cleaned = await project.cli(['clean', 'stray', '--json']);
  assert.equal(cleaned.exitCode, 0, cleaned.stdout);
  assert.deepEqual(cleaned.json.data.workflows[0].kept, [stray]);
  assert.ok(existsSync(stray), 'clean keeps it');
  assert.ok(!existsSync(join(directory, 'dist', 'stray', 'workflow.js')), 'the compiled module is gone');
  assert.ok(!existsSync(join(directory, 'dist', '.stratos-build.json')), 'the record is gone');
});

test('an explicit build keeps a .ts file in generated/mcp/ that is not a wrapper Stratos wrote', async () => {
  const directory = await project.writeWorkflow('own-mcp-file', {
    'workflow.yaml': manifest('own-mcp-file'),
    'workflow.ts': echoWorkflow,
    'generated/mcp/mine.ts': 'export const mine = 1;\n',
    'generated/mcp/old.ts': "/*\n * Generated by Stratos from the tools of the MCP server 'old'.\n */\n",
  });
  const built = await project.cli(['build', 'own-mcp-file', '--json']);
  assert.equal(built.exitCode, 0, built.stdout);
  assert.ok(existsSync(join(directory, 'generated', 'mcp', 'mine.ts')), 'the authored file stays');
  assert.ok(!existsSync(join(directory, 'generated', 'mcp', 'old.ts')), 'the unconfigured wrapper goes');
});

test("a root node_modules/ or package.json that is a symbolic link is refused, and the link's target is untouched", async () => {
  const other = await createTempProject('stratos-owned-root-');
  try {
    await other.writeWorkflow('linked', {'workflow.yaml': manifest('linked'), 'workflow.ts': echoWorkflow});
    const elsewhere = join(other.cwd, 'elsewhere');
    await mkdir(join(elsewhere, 'zod'), {recursive: true});
    await writeFile(join(elsewhere, 'zod', 'package.json'), '{"name": "zod", "version": "0.0.1"}\n');
    const before = await listTree(elsewhere);
    await symlink(elsewhere, join(other.projectRoot, 'node_modules'), 'dir');
    const built = await other.cli(['build', 'linked', '--json']);
    assert.equal(built.exitCode, 1, built.stdout);
    assert.equal(built.json.error.code, 'STRATOS_BUILD_OUTPUT_UNSAFE', built.stdout);
    assert.match(built.json.error.message, /node_modules is a symbolic link/);
    assert.deepEqual(await listTree(elsewhere), before, 'nothing was linked or replaced in the target');
    assert.ok(!existsSync(join(other.projectRoot, 'package.json')), 'nothing was written before the check');

    await rm(join(other.projectRoot, 'node_modules'));
    const outsidePackage = join(other.cwd, 'outside-package.json');
    await writeFile(outsidePackage, '{"type": "module"}\n');
    await symlink(outsidePackage, join(other.projectRoot, 'package.json'));
    const again = await other.cli(['build', 'linked', '--json']);
    assert.equal(again.json.error?.code, 'STRATOS_BUILD_OUTPUT_UNSAFE', again.stdout);
    assert.match(again.json.error.message, /package\.json is a symbolic link/);
    assert.ok(!existsSync(join(other.projectRoot, 'node_modules')), 'no link was made');
    assert.ok(
      (await lstat(join(other.projectRoot, 'package.json'))).isSymbolicLink(),
      'the link stays a link',
    );
  } finally {
    await other.remove();
  }
});

/** Every path under `folder` with its kind, and a link's target. */
async function listTree(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, {recursive: true, withFileTypes: true})) {
    const path = join(entry.parentPath, entry.name);
    found.push(entry.isSymbolicLink() ? `${path} -> ${await readlink(path)}` : path);
  }
  return found.sort();
}

test('a root .gitignore linked outside the root is left alone and the build warns; one linked inside is edited', async () => {
  const other = await createTempProject('stratos-owned-ignore-');
  try {
    await other.writeWorkflow('ignored', {'workflow.yaml': manifest('ignored'), 'workflow.ts': echoWorkflow});
    const outside = join(other.cwd, 'team.gitignore');
    await writeFile(outside, '*.log\n');
    const link = join(other.projectRoot, '.gitignore');
    await symlink(outside, link);
    const built = await other.cli(['build', 'ignored', '--json']);
    assert.equal(built.exitCode, 0, built.stdout);
    assert.deepEqual(
      built.json.warnings.map((w: {code: string; location: {file: string}}) => [w.code, w.location.file]),
      [['STRATOS_BUILD_IGNORE_RULES_SKIPPED', link]],
    );
    assert.equal(await readFile(outside, 'utf8'), '*.log\n', 'the target outside the root is untouched');
    assert.equal(await readlink(link), outside, 'the link is untouched');

    await rm(link);
    await writeFile(join(other.projectRoot, 'ignore-rules'), '*.log\n');
    await symlink('ignore-rules', link);
    const again = await other.cli(['build', 'ignored', '--force', '--json']);
    assert.equal(again.exitCode, 0, again.stdout);
    assert.deepEqual(again.json.warnings, []);
    assert.ok((await lstat(link)).isSymbolicLink(), 'still a link');
    assert.match(
      await readFile(join(other.projectRoot, 'ignore-rules'), 'utf8'),
      /^\*\.log\n# Generated by Stratos/,
    );
  } finally {
    await other.remove();
  }
});

test('a workflow folder that is a symbolic link is skipped with a coded reason in list and run, never built through', async () => {
  const other = await createTempProject('stratos-owned-linked-');
  try {
    const shared = join(other.cwd, 'shared', 'linked');
    await mkdir(shared, {recursive: true});
    await writeFile(join(shared, 'workflow.yaml'), manifest('linked'));
    await writeFile(join(shared, 'workflow.ts'), echoWorkflow);
    const link = join(other.projectRoot, 'linked');
    await symlink(shared, link, 'dir');
    const before = await listTree(shared);

    const listed = await other.cli(['list', '--json']);
    assert.equal(listed.exitCode, 0, listed.stdout);
    assert.deepEqual(listed.json.data.workflows, []);
    assert.deepEqual(
      listed.json.warnings.map((w: {code: string; location: {file: string}}) => [w.code, w.location.file]),
      [['STRATOS_WORKFLOW_LINK_SKIPPED', join(link, 'workflow.yaml')]],
    );
    assert.match(listed.json.warnings[0].message, /is a symbolic link to the workflow folder .*skipped it/);
    const readable = await other.cli(['list']);
    assert.match(readable.stderr, /STRATOS_WORKFLOW_LINK_SKIPPED/);

    const run = await other.cli(['run', 'linked', '--input', '{"text":"x"}', '--json']);
    assert.equal(run.exitCode, 1, run.stdout);
    assert.equal(run.json.error.code, 'STRATOS_WORKFLOW_NOT_FOUND');
    assert.match(run.json.error.message, /is a symbolic link to the workflow folder/);
    assert.deepEqual(await listTree(shared), before, 'nothing was written into the linked folder');

    // Named by the link's path, the folder is used where it really is: its own parent is the root.
    const byPath = await other.cli(['run', link, '--input', '{"text":"x"}', '--json']);
    assert.equal(byPath.exitCode, 0, byPath.stdout);
    assert.deepEqual(byPath.json.data.output, {echo: 'X'});
    assert.ok(
      existsSync(join(other.cwd, 'shared', 'node_modules', '@stratoscli')),
      'the real parent is the root',
    );
    assert.ok(
      !existsSync(join(other.projectRoot, 'node_modules')),
      'nothing went into the root holding the link',
    );
  } finally {
    await other.remove();
  }
});
