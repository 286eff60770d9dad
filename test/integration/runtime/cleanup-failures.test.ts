// A resource whose close() throws when an invocation ends: every other resource is still closed, the failure has
// its own code, and the run's own result or error stands (beside it on success, attached to the child's error).
import assert from 'node:assert/strict';
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {z} from 'zod';
import {workflow} from '../../../src/contract/index.ts';
import type {WorkflowManifest} from '../../../src/manifest/index.ts';
import {findExecutionContext, invokeWorkflow} from '../../../src/runtime/index.ts';

let base: string;
before(async () => {
  base = await mkdtemp(join(tmpdir(), 'stratos-cleanup-'));
});
after(() => rm(base, {recursive: true, force: true}));

const manifestOf = (name: string): WorkflowManifest => ({
  name,
  shortDescription: `${name}.`,
  longDescription: 'Test.',
  version: '1.0.0',
  entrypoint: 'workflow.ts',
});

/** Registers three resources with the running invocation; the middle one's close() throws. */
function registerResources(closed: string[]): void {
  const resources = findExecutionContext()!.resources;
  resources.register({label: 'mcp:first', close: () => void closed.push('mcp:first')});
  resources.register({
    label: 'agent:broken',
    close: () => {
      closed.push('agent:broken');
      throw new Error('the harness process would not exit');
    },
  });
  resources.register({label: 'mcp:last', close: async () => void closed.push('mcp:last')});
}

test('a failing close() on success: every resource is attempted, the output stands, the failure is coded', async () => {
  const closed: string[] = [];
  const definition = workflow({
    input: z.object({}),
    output: z.object({answer: z.number()}),
    run: async () => {
      registerResources(closed);
      return {answer: 42};
    },
  });
  const result = await invokeWorkflow({
    workflow: {name: 'succeeds', directory: base, manifest: manifestOf('succeeds')},
    definition,
    input: {},
    invocationDirectory: base,
  });
  assert.deepEqual(closed, ['mcp:last', 'agent:broken', 'mcp:first']);
  assert.equal(result.ok, true);
  assert.deepEqual(result.ok && result.output, {answer: 42});
  assert.equal(result.cleanupFailures.length, 1);
  const [failure] = result.cleanupFailures;
  assert.equal(failure!.label, 'agent:broken');
  assert.equal(failure!.error.code, 'STRATOS_CLEANUP_FAILED');
  assert.match(
    failure!.error.message,
    /Cleanup of agent:broken failed: the harness process would not exit\./,
  );
  assert.equal((failure!.error.cause as Error).message, 'the harness process would not exit');
});

test("a failing close() on failure: the run's own error stands and the cleanup failure is beside it", async () => {
  const closed: string[] = [];
  const definition = workflow({
    input: z.object({}),
    output: z.object({}),
    run: async () => {
      registerResources(closed);
      throw new Error('the work itself failed');
    },
  });
  const result = await invokeWorkflow({
    workflow: {name: 'fails', directory: base, manifest: manifestOf('fails')},
    definition,
    input: {},
    invocationDirectory: base,
  });
  assert.deepEqual(closed, ['mcp:last', 'agent:broken', 'mcp:first']);
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.error.code, 'STRATOS_RUN_FAILED');
  assert.match(!result.ok ? result.error.message : '', /the work itself failed/);
  assert.deepEqual(
    result.cleanupFailures.map((f) => [f.label, f.error.code]),
    [['agent:broken', 'STRATOS_CLEANUP_FAILED']],
  );
});
