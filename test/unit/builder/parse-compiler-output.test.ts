import assert from 'node:assert/strict';
import {join} from 'node:path';
import {test} from 'node:test';
import {parseCompilerOutput} from '../../../src/builder/compiler.ts';

const root = '/tmp/project/.stratos/workflows';

test('a located diagnostic becomes STRATOS_BUILD_TYPE_ERROR with an absolute file, line and column', () => {
  const output = "echo/workflow.ts(8,11): error TS2322: Type 'string' is not assignable to type 'number'.\n";
  assert.deepEqual(parseCompilerOutput(output, root), [
    {
      code: 'STRATOS_BUILD_TYPE_ERROR',
      severity: 'error',
      message: "TS2322: Type 'string' is not assignable to type 'number'.",
      location: {file: join(root, 'echo', 'workflow.ts'), line: 8, column: 11},
    },
  ]);
});

test('absolute paths stay as they are; several diagnostics keep their order', () => {
  const output = [
    "/abs/a.ts(1,1): error TS1005: ';' expected.",
    "echo/lib/b.ts(20,3): error TS2304: Cannot find name 'x'.",
  ].join('\r\n');
  const diagnostics = parseCompilerOutput(output, root);
  assert.deepEqual(
    diagnostics.map((d) => [d.location?.file, d.location?.line, d.location?.column, d.message.slice(0, 6)]),
    [
      ['/abs/a.ts', 1, 1, 'TS1005'],
      [join(root, 'echo', 'lib', 'b.ts'), 20, 3, 'TS2304'],
    ],
  );
});

test('indented continuation lines join the message of the diagnostic before them', () => {
  const output = [
    "echo/workflow.ts(3,5): error TS2345: Argument of type '{ a: number; }' is not assignable to parameter of type 'B'.",
    "  Property 'b' is missing in type '{ a: number; }' but required in type 'B'.",
    '',
  ].join('\n');
  const [diagnostic] = parseCompilerOutput(output, root);
  assert.equal(
    diagnostic?.message,
    "TS2345: Argument of type '{ a: number; }' is not assignable to parameter of type 'B'.\n  Property 'b' is missing in type '{ a: number; }' but required in type 'B'.",
  );
});

test('a global diagnostic has no location', () => {
  const [diagnostic] = parseCompilerOutput("error TS5023: Unknown compiler option 'foo'.\n", root);
  assert.deepEqual(diagnostic, {
    code: 'STRATOS_BUILD_TYPE_ERROR',
    severity: 'error',
    message: "TS5023: Unknown compiler option 'foo'.",
  });
});

test('a file name with parentheses and a warning severity are parsed', () => {
  const [diagnostic] = parseCompilerOutput('echo/odd (copy).ts(2,4): warning TS6133: unused.\n', root);
  assert.equal(diagnostic?.severity, 'warning');
  assert.deepEqual(diagnostic?.location, {file: join(root, 'echo', 'odd (copy).ts'), line: 2, column: 4});
});

test('empty output and stray text before any diagnostic give nothing', () => {
  assert.deepEqual(parseCompilerOutput('', root), []);
  assert.deepEqual(parseCompilerOutput('\n\nsome banner\n', root), []);
});
