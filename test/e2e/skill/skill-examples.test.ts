// The bundled skill's examples are executed: the fenced `yaml workflow.yaml` and `ts workflow.ts` blocks are
// written into a temporary project, built and run through the real CLI with the skill's own command, and the
// output must be exactly the `json example-output` block. The skill's size and frontmatter are checked too.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {parse} from 'yaml';
import {createTempProject, type TempProject} from '../../helpers/temp-project.ts';

const skillPath = fileURLToPath(new URL('../../../skills/stratos-workflows/SKILL.md', import.meta.url));
const skill = readFileSync(skillPath, 'utf8');

/** Fenced blocks with an info string of two words, such as ```ts workflow.ts, keyed by the second word. */
function taggedBlocks(markdown: string): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  for (const match of markdown.matchAll(/^```(\w+) ([\w.-]+)\n([\s\S]*?)^```$/gm)) {
    const tag = match[2]!;
    blocks.set(tag, [...(blocks.get(tag) ?? []), match[3]!]);
  }
  return blocks;
}

function only(blocks: Map<string, string[]>, tag: string): string {
  const found = blocks.get(tag) ?? [];
  assert.equal(found.length, 1, `SKILL.md must have exactly one \`\`\`<lang> ${tag} block`);
  return found[0]!;
}

/** Splits `stratos run <name> --input '<json>'` into its arguments. */
function parseRunCommand(line: string): {name: string; input: string} {
  const match = /^stratos run (\S+) --input '([^']*)'$/.exec(line.trim());
  assert.ok(match, `not a 'stratos run <name> --input '<json>'' line: ${line}`);
  return {name: match[1]!, input: match[2]!};
}

describe('skills/stratos-workflows/SKILL.md', () => {
  test('is an Agent Skill within the instruction budget', () => {
    const frontmatter = /^---\n([\s\S]*?)\n---\n/.exec(skill);
    assert.ok(frontmatter, 'SKILL.md starts with YAML frontmatter');
    const meta = parse(frontmatter[1]!) as {name?: unknown; description?: unknown};
    assert.equal(meta.name, 'stratos-workflows');
    assert.equal(typeof meta.description, 'string');
    assert.ok(
      (meta.description as string).length <= 1024,
      'Agent Skills cap the description at 1,024 characters',
    );
    assert.ok(!(meta.description as string).includes('\n'), 'the description is one line');
    // Under 5,000 tokens: about 18,000 characters of English prose and code is the ceiling used here.
    assert.ok(skill.length < 18_000, `SKILL.md has ${skill.length} characters; keep it under 18,000`);
  });

  test('teaches the description budgets and the list, describe, run flow', () => {
    for (const text of ['400', '12,000', '>-', 'stratos list', 'stratos describe', 'stratos run', '--json']) {
      assert.ok(skill.includes(text), `SKILL.md mentions ${text}`);
    }
  });

  describe('the workflow example', () => {
    const blocks = taggedBlocks(skill);
    const manifestText = only(blocks, 'workflow.yaml');
    const entrypointText = only(blocks, 'workflow.ts');
    const commands = only(blocks, 'example-command').trim().split('\n');
    const expected = JSON.parse(only(blocks, 'example-output')) as unknown;
    const name = (parse(manifestText) as {name: string}).name;
    let project: TempProject;

    before(async () => {
      project = await createTempProject('stratos-skill-');
      await project.writeWorkflow(name, {'workflow.yaml': manifestText, 'workflow.ts': entrypointText});
    });
    after(() => project.remove());

    test('is listed with its short description on one line', async () => {
      const result = await project.cli(['list', '--json']);
      assert.equal(result.exitCode, 0, result.stderr);
      const listed = result.json.data.workflows.find((w: {name: string}) => w.name === name);
      assert.ok(listed, `${name} is listed`);
      assert.ok(!listed.shortDescription.includes('\n'));
      assert.deepEqual(result.json.warnings, [], 'the example is within the description targets');
    });

    test('builds with no diagnostics', async () => {
      assert.equal(commands[0], `stratos build ${name}`);
      const result = await project.cli(['build', name, '--json']);
      assert.equal(result.exitCode, 0, result.stdout + result.stderr);
      assert.equal(result.json.ok, true);
      assert.deepEqual(result.json.data.workflows[0].diagnostics, []);
    });

    test('runs with the shown input and prints the shown output', async () => {
      const {name: target, input} = parseRunCommand(commands.at(-1)!);
      assert.equal(target, name);
      const result = await project.cli(['run', target, '--input', input]);
      assert.equal(result.exitCode, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), expected);
      assert.equal(result.stdout.trim(), JSON.stringify(expected, null, 2));
    });

    test('returns the same output in the --json envelope', async () => {
      const {input} = parseRunCommand(commands.at(-1)!);
      const result = await project.cli(['run', name, '--input', input, '--json']);
      assert.equal(result.exitCode, 0, result.stderr);
      assert.equal(result.json.ok, true);
      assert.deepEqual(result.json.data.output, expected);
      assert.equal(typeof result.json.data.executionId, 'string');
      assert.deepEqual(result.json.warnings, []);
    });

    test('rejects an unknown input field, as the schema rules say', async () => {
      const result = await project.cli(['run', name, '--input', '{"title":"x","extra":1}', '--json']);
      assert.equal(result.exitCode, 1);
      assert.equal(result.json.error.code, 'STRATOS_INPUT_INVALID');
    });
  });
});
