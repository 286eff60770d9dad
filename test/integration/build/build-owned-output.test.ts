/**
 * Every write and removal under dist/, generated/ and <root>/.generated/ stays inside the workflow (or the root):
 * a symbolic link on the way, or in one of those folders, refuses the build (or clean) with
 * STRATOS_BUILD_OUTPUT_UNSAFE and nothing in the link's target is written or deleted; a folder where Stratos
 * writes a file is the same coded error, not an internal one. Real CLI, real tsc, a real stdio MCP server.
 */
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import type {CliResult} from '../../helpers/run-cli.ts';
import {createTempProject, echoWorkflow, manifest, type TempProject} from '../../helpers/temp-project.ts';
import {SERVE_SCRIPT} from '../../servers/mcp/index.ts';

const q = JSON.stringify;
const withServer = (name: string) =>
  manifest(
    name,
    `mcp:\n  servers:\n    counter:\n      type: stdio\n      command: ${q(process.execPath)}\n      args: ${q([SERVE_SCRIPT, 'counter', '--stdio'])}\n`,
  );

let project: TempProject;
let outside: string;

before(async () => {
  project = await createTempProject('stratos-owned-output-');
  outside = await mkdtemp(join(tmpdir(), 'stratos-outside-'));
});
after(async () => {
  await project.remove();
  await rm(outside, {recursive: true, force: true});
});

/** A folder outside every workflow holding files a careless build would delete or overwrite. */
function victim(name: string): string {
  const folder = join(outside, name);
  mkdirSync(folder, {recursive: true});
  writeFileSync(join(folder, 'precious.ts'), 'export const precious = true;\n');
  writeFileSync(join(folder, 'counter.ts'), '// not a wrapper\n');
  return folder;
}

function assertUntouched(folder: string): void {
  assert.deepEqual(readdirSync(folder).sort(), ['counter.ts', 'precious.ts']);
  assert.equal(readFileSync(join(folder, 'counter.ts'), 'utf8'), '// not a wrapper\n');
}

function assertRefused(result: CliResult): void {
  assert.equal(result.exitCode, 1, result.stdout + result.stderr);
  const text = JSON.stringify(result.json);
  assert.match(text, /STRATOS_BUILD_OUTPUT_UNSAFE/, text);
  assert.doesNotMatch(text, /STRATOS_INTERNAL/);
}

describe('symbolic links in build output folders', {concurrency: true}, () => {
  test('a symlinked generated/mcp: build refuses with and without an entrypoint; the target keeps its files', async () => {
    const target = victim('mcp-target');
    const directory = await project.writeWorkflow('linked-mcp', {'workflow.yaml': withServer('linked-mcp')});
    mkdirSync(join(directory, 'generated'));
    symlinkSync(target, join(directory, 'generated', 'mcp'));
    assertRefused(await project.cli(['build', 'linked-mcp', '--json']));
    writeFileSync(join(directory, 'workflow.ts'), echoWorkflow);
    assertRefused(await project.cli(['build', 'linked-mcp', '--json']));
    assertUntouched(target);
  });

  test('a symlinked generated/: refused, the target untouched', async () => {
    const target = victim('generated-target');
    const directory = await project.writeWorkflow('linked-generated', {
      'workflow.yaml': withServer('linked-generated'),
      'workflow.ts': echoWorkflow,
    });
    symlinkSync(target, join(directory, 'generated'));
    assertRefused(await project.cli(['build', 'linked-generated', '--json']));
    assertUntouched(target);
  });

  test('a symlinked dist/, or a link inside it: build, run and clean refuse; nothing deleted', async () => {
    const target = victim('dist-target');
    const directory = await project.writeWorkflow('linked-dist', {
      'workflow.yaml': manifest('linked-dist'),
      'workflow.ts': echoWorkflow,
    });
    symlinkSync(target, join(directory, 'dist'));
    assertRefused(await project.cli(['build', 'linked-dist', '--json']));
    assertRefused(await project.cli(['run', 'linked-dist', '--input', '{"text":"x"}', '--json']));
    assertRefused(await project.cli(['clean', 'linked-dist', '--json']));
    assertUntouched(target);
    await rm(join(directory, 'dist'));
    const built = await project.cli(['build', 'linked-dist', '--json']);
    assert.equal(built.exitCode, 0, built.stdout);
    symlinkSync(target, join(directory, 'dist', 'inner'));
    assertRefused(await project.cli(['build', 'linked-dist', '--force', '--json']));
    assertUntouched(target);
    assert.ok(existsSync(join(directory, 'dist', 'inner', 'precious.ts')));
  });

  test('a symlinked <root>/.generated: the parent build refuses to write the child wrapper there', async () => {
    const other = await createTempProject('stratos-owned-root-');
    try {
      const target = victim('root-generated-target');
      await other.writeWorkflow('kid', {'workflow.yaml': manifest('kid'), 'workflow.ts': echoWorkflow});
      await other.writeWorkflow('parent', {
        'workflow.yaml': manifest('parent'),
        'workflow.ts': echoWorkflow.replace(
          "import {z} from 'zod';",
          "import {z} from 'zod';\nimport createKid from '../.generated/kid.js';\nvoid createKid;",
        ),
      });
      symlinkSync(target, join(other.projectRoot, '.generated'));
      assertRefused(await other.cli(['build', 'parent', '--json']));
      assertUntouched(target);
    } finally {
      await other.remove();
    }
  });

  test('a folder named generated/mcp/x.ts is a coded error, and nothing is removed', async () => {
    const directory = await project.writeWorkflow('folder-wrapper', {
      'workflow.yaml': withServer('folder-wrapper'),
      'workflow.ts': echoWorkflow,
    });
    mkdirSync(join(directory, 'generated', 'mcp', 'x.ts'), {recursive: true});
    writeFileSync(join(directory, 'generated', 'mcp', 'x.ts', 'keep.txt'), 'kept\n');
    assertRefused(await project.cli(['build', 'folder-wrapper', '--json']));
    assert.ok(existsSync(join(directory, 'generated', 'mcp', 'x.ts', 'keep.txt')));
    // The run path: a directly used server's wrapper path is a folder.
    writeFileSync(
      join(directory, 'workflow.ts'),
      echoWorkflow
        .replace(
          "import {z} from 'zod';",
          "import {z} from 'zod';\nimport createCounter from './generated/mcp/counter.js';",
        )
        .replace('run({text}) {', 'async run({text}) {\n    await createCounter();'),
    );
    mkdirSync(join(directory, 'generated', 'mcp', 'counter.ts'));
    assertRefused(await project.cli(['run', 'folder-wrapper', '--input', '{"text":"x"}', '--json']));
    assert.ok(existsSync(join(directory, 'generated', 'mcp', 'counter.ts')));
  });
});
