// `stratos test` with 50 cases of a workflow with an agent and MCP calls (two scripted agent executes and two
// scripted tool calls per case) against the same workflow with 1 case, both through the built CLI after a warm
// build. Target: the 50 cases in a few seconds; the ratio shows what a case costs beyond CLI start-up.
import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {cliPath} from '../test/helpers/run-cli.ts';
import {formatTiming, timeOnce, timeSideBySide} from './measure.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const repository = join(import.meta.dirname, '..');
const base = mkdtempSync('/var/tmp/stratos-bench-test-');
const cwd = join(base, 'work');
const root = join(cwd, '.stratos', 'workflows');
const env = {...process.env, STRATOS_HOME: join(base, 'home'), CI: '1'};
const server = join(repository, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

const source = `import {createAgent, workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createFiles from './generated/mcp/files.js';

export default workflow({
  input: z.strictObject({n: z.number().describe('Case number')}),
  output: z.object({label: z.string().describe('Label'), note: z.string().describe('Note'), entries: z.number().describe('Entries')}),
  async run({n}) {
    const files = await createFiles();
    const root = (await files.list_allowed_directories({})).structuredContent.content.split('\\n')[1] ?? '';
    const listing = (await files.list_directory({path: root})).structuredContent.content.split('\\n');
    const labeler = createAgent('labeler', {outputSchema: z.object({label: z.string().describe('Label')})});
    const {label} = await labeler.execute(\`Label case \${n} with \${listing.length} entries.\`);
    const note = await createAgent('noter').execute(\`Note on \${label}.\`);
    return {label, note, entries: listing.length};
  },
});
`;

function caseOf(n: number): unknown {
  const text = (content: string) => ({
    content: [{type: 'text', text: content}],
    structuredContent: {content},
  });
  return {
    input: {n},
    output: {label: `label ${n}`, note: `note ${n}`, entries: 2},
    agents: [
      {agent: 'labeler', prompt: `case ${n} `, output: {label: `label ${n}`}},
      {agent: 'noter', prompt: `label ${n}.`, reply: `note ${n}`},
    ],
    mcp: {
      files: [
        {tool: 'list_allowed_directories', arguments: {}, result: text('Allowed directories:\n/data')},
        {tool: 'list_directory', arguments: {path: '/data'}, result: text('[DIR] a\n[FILE] b')},
      ],
    },
  };
}

function writeWorkflow(name: string, cases: number): void {
  const directory = join(root, name);
  mkdirSync(join(directory, 'tests'), {recursive: true});
  writeFileSync(
    join(directory, 'workflow.yaml'),
    `name: ${name}\nshortDescription: Bench workflow ${name}.\nlongDescription: Used by bench/stratos-test.bench.ts.\nversion: "1.0.0"\n` +
      `agents:\n  labeler:\n    harness: claude-code\n  noter:\n    harness: claude-code\n` +
      `mcp:\n  servers:\n    files:\n      type: stdio\n      command: node\n      args: [${JSON.stringify(server)}, ${JSON.stringify(cwd)}]\n`,
  );
  writeFileSync(join(directory, 'workflow.ts'), source);
  for (let n = 1; n <= cases; n++) {
    writeFileSync(join(directory, 'tests', `case-${n}.json`), JSON.stringify(caseOf(n)));
  }
}

try {
  writeWorkflow('one-case', 1);
  writeWorkflow('fifty-cases', 50);
  const command = (label: string, name: string) => ({
    label,
    command: process.execPath,
    args: [cliPath, 'test', name, '--json'],
    cwd,
    env,
  });
  // The first run of each builds; later runs reuse the build.
  timeOnce(command('build one', 'one-case'));
  timeOnce(command('build fifty', 'fifty-cases'));
  // What is timed is every case passing, not a quick failure: the summary must count them all.
  for (const [name, cases] of [
    ['one-case', 1],
    ['fifty-cases', 50],
  ] as const) {
    const {args, ...options} = command(name, name);
    const {summary} = JSON.parse(
      spawnSync(process.execPath, args, {...options, encoding: 'utf8'}).stdout,
    ).data;
    if (summary.total !== cases || summary.passed !== cases)
      throw new Error(`${name}: expected ${cases} passing cases, got ${JSON.stringify(summary)}`);
  }
  const [one, fifty] = timeSideBySide(
    [command('stratos test, 1 case', 'one-case'), command('stratos test, 50 cases', 'fifty-cases')],
    rounds,
    1,
  );
  console.log(formatTiming(one!));
  console.log(formatTiming(fifty!));
  console.log(`ratio of medians (50 cases / 1 case): ${(fifty!.medianMs / one!.medianMs).toFixed(2)}x`);
  console.log(`per extra case: ${((fifty!.medianMs - one!.medianMs) / 49).toFixed(1)} ms`);
} finally {
  rmSync(base, {recursive: true, force: true});
}
