// Child workflows through the real CLI: typed calls, separate invocations, failures, schema changes reaching the
// parent's type check, build-time cycles, children named only at run time, project-wide builds, overrides and bindings.
import assert from 'node:assert/strict';
import {mkdir, readFile, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {createTempProject, manifest, type TempProject} from '../../helpers/temp-project.ts';

const childSource = (
  outputField: string,
  body = 'return {[FIELD]: 2 * n, executionId: e.executionId, overrides: JSON.stringify(e.overrides)};',
) => `import {currentExecution, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({
    n: z.number().describe('A number'),
    fail: z.boolean().default(false).describe('Throw instead of answering'),
  }),
  output: z.object({
    ${outputField}: z.number().describe('Twice n'),
    executionId: z.string().describe('The child execution id'),
    overrides: z.string().describe('The overrides the child saw, as JSON'),
  }),
  run({n, fail}) {
    if (fail) throw new Error('child asked to fail');
    const e = currentExecution();
    ${body.replace('[FIELD]', outputField)}
  },
});
`;

const parentSource = `import {currentExecution, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createChild from '../.generated/child.js';

export default workflow({
  input: z.strictObject({
    n: z.number().describe('A number'),
    uncaught: z.boolean().default(false).describe('Let a child failure propagate'),
  }),
  output: z.object({
    results: z.array(z.number()).describe('Doubled values'),
    ids: z.array(z.string()).describe('Child execution ids'),
    parentId: z.string().describe('The parent execution id'),
    caught: z.string().describe('The caught child error code and message'),
    unbound: z.string().describe('Overrides seen by an unbound child'),
    bound: z.string().describe('Overrides seen by a bound child'),
  }),
  async run({n, uncaught}) {
    const child = createChild();
    const first = await child.execute({n});
    const [second, third] = await Promise.all([child.execute({n: n + 1}), child.execute({n: n + 2})]);
    if (uncaught) await child.execute({n, fail: true});
    let caught = '';
    try {
      await child.execute({n, fail: true});
    } catch (error) {
      caught = \`\${(error as {code?: string}).code}: \${(error as Error).message}\`;
    }
    const bound = await createChild({agents: {writer: {model: 'bound-model'}}}).execute({n});
    return {
      results: [first.doubled, second.doubled, third.doubled],
      ids: [first.executionId, second.executionId, third.executionId],
      parentId: currentExecution().executionId,
      caught,
      unbound: first.overrides,
      bound: bound.overrides,
    };
  },
});
`;

let project: TempProject;
before(async () => {
  project = await createTempProject();
  await project.writeWorkflow('child', {
    'workflow.yaml': manifest('child'),
    'workflow.ts': childSource('doubled'),
  });
  await project.writeWorkflow('parent', {'workflow.yaml': manifest('parent'), 'workflow.ts': parentSource});
});
after(() => project.remove());

test('a parent calls its child through the typed wrapper; each execute is its own invocation', async () => {
  const input = {n: 1, overrides: {agents: {writer: {model: 'parent-model'}}}};
  const result = await project.cli(['run', 'parent', '--input', JSON.stringify(input), '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const output = result.json.data.output;
  assert.deepEqual(output.results, [2, 4, 6]);
  const ids = new Set([...output.ids, output.parentId]);
  assert.equal(ids.size, 4, 'sequential and parallel calls of one child object get distinct execution ids');
  assert.match(
    output.caught,
    /^STRATOS_WORKFLOW_CHILD_FAILED: Child workflow 'child' failed: child asked to fail/,
  );
  assert.equal(output.unbound, '{}', "the parent's overrides never reach the child");
  assert.deepEqual(JSON.parse(output.bound), {agents: {writer: {model: 'bound-model'}}});
  const wrapper = await readFile(join(project.projectRoot, '.generated', 'child.ts'), 'utf8');
  assert.match(wrapper, /export type ChildInput = /);
  assert.match(wrapper, /\/\*\* Twice n \*\//);
});

test('an uncaught child failure fails the parent with the child error as cause', async () => {
  const result = await project.cli(['run', 'parent', '--input', '{"n": 1, "uncaught": true}', '--json']);
  assert.equal(result.exitCode, 1);
  assert.equal(result.json.error.code, 'STRATOS_WORKFLOW_CHILD_FAILED');
  assert.equal(result.json.error.details.code, 'STRATOS_RUN_FAILED');
  assert.ok(
    result.json.error.details.causes.some((c: {message: string}) => /child asked to fail/.test(c.message)),
  );
});

test('a child run-body change rebuilds only the child; a schema change fails the parent type check', async () => {
  const build = await project.cli(['build', '--json']);
  assert.equal(build.exitCode, 0, build.stderr);
  const parentDist = join(project.projectRoot, 'parent', 'dist', 'parent', 'workflow.js');
  const before = (await stat(parentDist)).mtimeMs;
  await writeFile(
    join(project.projectRoot, 'child', 'workflow.ts'),
    childSource(
      'doubled',
      'return {doubled: n + n, executionId: e.executionId, overrides: JSON.stringify(e.overrides)};',
    ),
  );
  const rebuilt = await project.cli(['build', '--json']);
  const status = Object.fromEntries(
    rebuilt.json.data.workflows.map((w: {name: string; status: string}) => [w.name, w.status]),
  );
  assert.deepEqual(status, {child: 'built', parent: 'reused'});
  assert.equal((await stat(parentDist)).mtimeMs, before);

  await writeFile(join(project.projectRoot, 'child', 'workflow.ts'), childSource('twice'));
  const broken = await project.cli(['build', 'parent', '--json']);
  assert.equal(broken.exitCode, 1);
  assert.equal(broken.json.error.code, 'STRATOS_BUILD_TYPE_ERROR');
  const diagnostics = broken.json.error.details.workflows[0].diagnostics;
  assert.ok(
    diagnostics.some(
      (d: {location?: {file: string}; message: string}) =>
        d.location?.file.endsWith('parent/workflow.ts') && /doubled/.test(d.message),
    ),
  );
  const run = await project.cli(['run', 'parent', '--input', '{"n": 1}', '--json']);
  assert.equal(run.exitCode, 1, 'the old parent artifact is not used after its rebuild failed');
  await writeFile(join(project.projectRoot, 'child', 'workflow.ts'), childSource('doubled'));
});

test('cycles are rejected at build time, naming the cycle; a child named only at run time is refused', async () => {
  const cyclic = await createTempProject();
  try {
    const calls = (other: string, how: 'import' | 'dynamic') => `import {workflow} from '@stratoscli/stratos';
${how === 'import' ? `import createOther from '../.generated/${other}.js';` : "import {createChildWorkflow} from '@stratoscli/stratos/workflows';"}
import {z} from 'zod';
export default workflow({
  input: z.strictObject({depth: z.number().describe('Depth')}),
  output: z.object({depth: z.number().describe('Depth reached')}),
  async run({depth}): Promise<{depth: number}> {
    ${how === 'import' ? 'const other = createOther();' : `const other = createChildWorkflow<{depth: number}, {depth: number}>('${other}');`}
    return other.execute({depth: depth + 1});
  },
});
`;
    await cyclic.writeWorkflow('alpha', {
      'workflow.yaml': manifest('alpha'),
      'workflow.ts': calls('beta', 'import'),
    });
    await cyclic.writeWorkflow('beta', {
      'workflow.yaml': manifest('beta'),
      'workflow.ts': calls('alpha', 'import'),
    });
    const build = await cyclic.cli(['build', 'alpha', '--json']);
    assert.equal(build.exitCode, 1);
    assert.match(build.stdout, /STRATOS_WORKFLOW_CYCLE/);
    assert.match(build.stdout, /alpha → beta → alpha/);

    // beta names alpha only at run time: its build never saw alpha (not built first, not type-checked against), so
    // the call is refused before anything of alpha runs, whatever the name is.
    await cyclic.writeWorkflow('beta', {'workflow.ts': calls('alpha', 'dynamic')});
    const run = await cyclic.cli(['run', 'alpha', '--input', '{"depth": 0}', '--json']);
    assert.equal(run.exitCode, 1, run.stderr);
    assert.equal(run.json.error.code, 'STRATOS_WORKFLOW_CHILD_FAILED');
    assert.equal(run.json.error.details.code, 'STRATOS_WORKFLOW_CHILD_UNDECLARED');
    assert.match(
      run.json.error.message,
      /Workflow 'beta' called child workflow 'alpha', which its build did not see/,
    );
    assert.match(run.json.error.message, /\.generated\/alpha\.js/);

    // The same for a top-level run: a name computed from the input never reaches a workflow.
    await cyclic.writeWorkflow('gamma', {
      'workflow.yaml': manifest('gamma'),
      'workflow.ts': `import {workflow} from '@stratoscli/stratos';
import {createChildWorkflow} from '@stratoscli/stratos/workflows';
import {z} from 'zod';
export default workflow({
  input: z.strictObject({child: z.string().describe('The child to call')}),
  output: z.object({depth: z.number().describe('Depth reached')}),
  async run({child}) {
    return createChildWorkflow<{depth: number}, {depth: number}>(child).execute({depth: 0});
  },
});
`,
    });
    const computed = await cyclic.cli(['run', 'gamma', '--input', '{"child": "beta"}', '--json']);
    assert.equal(computed.exitCode, 1, computed.stderr);
    assert.equal(computed.json.error.code, 'STRATOS_WORKFLOW_CHILD_UNDECLARED');
    assert.match(computed.json.error.message, /children it imports: none/);
  } finally {
    await cyclic.remove();
  }
});

test('a project-wide build continues past a broken unrelated workflow; a broken child blocks its parent', async () => {
  const mixed = await createTempProject();
  try {
    await mixed.writeWorkflow('child', {
      'workflow.yaml': manifest('child'),
      'workflow.ts': 'export default 42;\n',
    });
    await mixed.writeWorkflow('parent', {'workflow.yaml': manifest('parent'), 'workflow.ts': parentSource});
    await mixed.writeWorkflow('solo', {
      'workflow.yaml': manifest('solo'),
      'workflow.ts': childSource('doubled').replace("'@stratoscli/stratos';", "'@stratoscli/stratos';\n"),
    });
    const build = await mixed.cli(['build', '--json']);
    assert.equal(build.exitCode, 1);
    assert.equal(build.json.error.code, 'STRATOS_BUILD_FAILED');
    const byName = Object.fromEntries(
      build.json.error.details.workflows.map((w: {name: string}) => [w.name, w]),
    );
    assert.equal(byName.solo.status, 'built');
    assert.equal(byName.child.status, 'failed');
    assert.equal(byName.parent.status, 'failed');
    assert.ok(
      byName.parent.diagnostics.some(
        (d: {code: string; message: string; location?: {line: number}}) =>
          d.code === 'STRATOS_BUILD_CHILD_FAILED' && /'child'/.test(d.message) && d.location?.line === 3,
      ),
    );
  } finally {
    await mixed.remove();
  }
});

test("a child keeps the parent's invocation directory, not its own folder", async () => {
  await project.writeWorkflow('where-child', {
    'workflow.yaml': manifest('where-child'),
    'workflow.ts': `import {currentExecution, workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({}),
  output: z.object({
    invocationDirectory: z.string().describe('The child invocation directory'),
    workflowDirectory: z.string().describe('The child folder'),
  }),
  run() {
    const {invocationDirectory, workflowDirectory} = currentExecution();
    return {invocationDirectory, workflowDirectory};
  },
});
`,
  });
  const parentDirectory = await project.writeWorkflow('where-parent', {
    'workflow.yaml': manifest('where-parent'),
    'workflow.ts': `import {currentExecution, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createChild from '../.generated/where-child.js';

export default workflow({
  input: z.strictObject({}),
  output: z.object({
    parent: z.string().describe('The parent invocation directory'),
    child: z.string().describe('The child invocation directory'),
    childFolder: z.string().describe('The child folder'),
  }),
  async run() {
    const child = await createChild().execute({});
    return {parent: currentExecution().invocationDirectory, child: child.invocationDirectory, childFolder: child.workflowDirectory};
  },
});
`,
  });
  // Started by folder path from a directory that is neither the project nor a workflow folder.
  const elsewhere = join(project.cwd, 'elsewhere');
  await mkdir(elsewhere, {recursive: true});
  const result = await project.cli(['run', parentDirectory, '--input', '{}', '--json'], {cwd: elsewhere});
  assert.equal(result.exitCode, 0, result.stdout + result.stderr);
  const {parent, child, childFolder} = result.json.data.output;
  assert.equal(parent, elsewhere);
  assert.equal(child, parent);
  assert.equal(childFolder, join(project.projectRoot, 'where-child'));
});
