// The runs page with a large run (docs/performance.md "Runs page"): a synthetic run of BENCH_SPANS spans (default
// 10,000: child workflows, agents with model and tool calls, direct MCP calls, some failed, incomplete and open
// ones, console lines) written as run.json and events.jsonl into a temporary STRATOS_HOME, served by the real
// viewer server (in-process, the TypeScript sources; the page scripts from dist/, so `npm run bench` builds
// first) and loaded in headless Chromium. Figure: the time from navigation start to the `stratos:rendered` mark
// (HTML, scripts, the run's JSON, the waterfall drawn), median over BENCH_ROUNDS (default 7) fresh tabs, beside a
// 100-span run loaded the same way in each round.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {chromium} from 'playwright-core';
import {startRunsViewer} from '../src/viewer/start-runs-viewer.ts';
import {chromiumFlags} from '../test/helpers/chromium.ts';
import {summarize} from './measure.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const large = Number(process.env.BENCH_SPANS ?? 10_000);
const base = mkdtempSync(join(tmpdir(), 'stratos-runs-page-bench-'));
const home = join(base, 'home');
const cwd = join(base, 'work');
mkdirSync(cwd, {recursive: true});

interface Line {
  time: number;
  order: number;
  record: Record<string, unknown>;
}

/** Writes a run of about `total` spans and returns its folder name. */
function writeSyntheticRun(total: number, index: number): string {
  const executionId = `${String(index).padStart(4, '0')}${'ab'.repeat(6)}`;
  const start = Date.UTC(2026, 11, 1, 12, index, 0);
  const runId = `${new Date(start).toISOString().replace(/[-:.]/g, '')}-${executionId}`;
  const lines: Line[] = [];
  let order = 0;
  let spans = 0;
  let next = 1;
  const id = () => (next++).toString(16).padStart(16, '0');
  const push = (time: number, record: Record<string, unknown>) => lines.push({time, order: order++, record});
  const span = (
    parent: string | undefined,
    kind: string,
    name: string,
    from: number,
    duration: number,
    status: string | undefined,
    attributes: Record<string, unknown> = {},
  ): string => {
    spans++;
    const spanId = id();
    const common = {
      executionId,
      workflow: 'bench',
      spanId,
      ...(parent === undefined ? {} : {parentSpanId: parent}),
    };
    const workflow = kind === 'workflow';
    push(from, {
      type: workflow ? 'workflow.start' : 'operation.start',
      ...common,
      ...(workflow ? {} : {kind, name}),
      attributes: {'stratos.operation.kind': kind, ...attributes},
    });
    if (status !== undefined)
      push(from + duration, {
        type: workflow ? 'workflow.end' : 'operation.end',
        ...common,
        ...(workflow ? {} : {kind, name}),
        status,
        durationMs: duration,
        attributes: {'stratos.operation.kind': kind, 'stratos.outcome': status, ...attributes},
        ...(status === 'error'
          ? {
              error: {
                type: 'ToolFailed',
                message: 'The tool failed.',
                causes: [{message: 'connection reset'}],
              },
            }
          : {}),
      });
    return spanId;
  };
  const root = span(undefined, 'workflow', 'workflow bench', start, 600_000, 'ok');
  const agents = Math.max(1, Math.round(total / 100));
  const children = Math.max(1, Math.round(agents / 25));
  const calls = Math.max(0, Math.floor((total - 1 - children - agents) / agents));
  const perChild = Math.ceil(agents / children);
  let agent = 0;
  for (let c = 0; c < children; c++) {
    const childStart = start + (c * 600_000) / children;
    const childSpan = span(
      root,
      'workflow',
      'workflow bench-child',
      childStart,
      600_000 / children - 10,
      'ok',
    );
    for (let a = 0; a < perChild && agent < agents; a++, agent++) {
      const agentStart = childStart + (a * (600_000 / children)) / perChild;
      const width = 600_000 / children / perChild - 5;
      const agentSpan = span(childSpan, 'agent.execute', `agent reviewer-${agent}`, agentStart, width, 'ok');
      push(agentStart + 1, {
        type: 'console',
        executionId,
        workflow: 'bench',
        spanId: agentSpan,
        level: 'log',
        message: `agent ${agent} started`,
      });
      for (let k = 0; k < calls; k++) {
        const from = agentStart + (k * width) / calls;
        const model = k % 2 === 0;
        const last = agent === agents - 1 && k === calls - 1;
        const status = last ? undefined : k % 50 === 49 ? 'error' : k % 97 === 96 ? 'incomplete' : 'ok';
        span(
          agentSpan,
          model ? 'agent.model' : 'agent.tool',
          model ? 'chat claude-code' : 'execute_tool mcp__github__get_pr',
          from,
          (width / calls) * 0.9,
          status,
          model
            ? {
                'gen_ai.usage.input_tokens': 10,
                'gen_ai.usage.output_tokens': 5,
                'gen_ai.response.model': 'claude',
              }
            : {'gen_ai.tool.name': 'mcp__github__get_pr', 'gen_ai.tool.call.arguments': `{"number":${k}}`},
        );
      }
    }
  }
  while (spans < total)
    span(root, 'mcp.call', 'tools/call get_me', start + spans, 3, 'ok', {'mcp.tool': 'get_me'});
  lines.sort((a, b) => a.time - b.time || a.order - b.order);
  const rootExecutionId = executionId;
  const text = lines
    .map((line, seq) =>
      JSON.stringify({
        time: new Date(line.time).toISOString(),
        seq,
        rootExecutionId,
        traceId: 'f'.repeat(32),
        ...line.record,
      }),
    )
    .join('\n');
  const folder = join(home, 'runs', 'work-bench', runId);
  mkdirSync(folder, {recursive: true});
  writeFileSync(join(home, 'runs', 'work-bench', 'workspace.json'), JSON.stringify({path: cwd}));
  writeFileSync(join(folder, 'events.jsonl'), `${text}\n`);
  writeFileSync(
    join(folder, 'run.json'),
    JSON.stringify({
      schemaVersion: 1,
      runId,
      executionId,
      traceId: 'f'.repeat(32),
      workflow: {name: 'bench', version: '1.0.0', directory: cwd},
      invocationDirectory: cwd,
      status: 'succeeded',
      startedAt: new Date(start).toISOString(),
      endedAt: new Date(start + 600_000).toISOString(),
      durationMs: 600_000,
      pid: 1,
      stratosVersion: '0.1.0',
      input: {type: 'object', keys: [], preview: '{}', truncated: false},
    }),
  );
  console.log(`run ${runId}: ${spans} spans, ${lines.length} records, ${(text.length / 1e6).toFixed(1)} MB`);
  return runId;
}

const smallRun = writeSyntheticRun(100, 1);
const largeRun = writeSyntheticRun(large, 2);
const profile = mkdtempSync(join(tmpdir(), 'stratos-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.STRATOS_TEST_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: chromiumFlags,
  viewport: {width: 1400, height: 900},
});

async function load(url: string, runId: string): Promise<{renderedMs: number; dataMs: number; rows: number}> {
  const page = await context.newPage();
  await page.goto(`${url}#/runs/${runId}`);
  await page.waitForSelector('body[data-view=run]', {timeout: 60_000});
  const figures = await page.evaluate(() => {
    const mark = performance.getEntriesByName('stratos:rendered')[0]!;
    const data = performance
      .getEntriesByType('resource')
      .find((entry) => entry.name.includes('/api/runs/')) as PerformanceResourceTiming;
    return {
      renderedMs: mark.startTime,
      dataMs: data.responseEnd - data.startTime,
      rows: document.querySelectorAll('#waterfall-rows .row').length,
    };
  });
  const spans = await page.textContent('.axis-label');
  if (!spans?.startsWith(runId === largeRun ? `${large} spans` : '100 spans'))
    throw new Error(`unexpected span count ${spans}`);
  await page.close();
  return figures;
}

try {
  const warm = await startRunsViewer({home, cwd, all: false});
  await load(warm.url, smallRun);
  await load(warm.url, largeRun);
  await warm.close();
  const small: number[] = [];
  const big: number[] = [];
  const data: number[] = [];
  let rows = 0;
  for (let round = 0; round < rounds; round++) {
    // A new server each round: nothing of the run is cached between rounds.
    const viewer = await startRunsViewer({home, cwd, all: false});
    small.push((await load(viewer.url, smallRun)).renderedMs);
    const result = await load(viewer.url, largeRun);
    big.push(result.renderedMs);
    data.push(result.dataMs);
    rows = result.rows;
    await viewer.close();
  }
  const s = summarize('100 spans', small);
  const l = summarize(`${large} spans`, big);
  const d = summarize('run JSON (request to last byte)', data);
  for (const t of [s, l, d])
    console.log(
      `${t.label.padEnd(36)} median ${t.medianMs.toFixed(0)} ms  (min ${t.minMs.toFixed(0)}, max ${t.maxMs.toFixed(0)})`,
    );
  console.log(
    `rows in the DOM for ${large} spans: ${rows}; ratio large/small ${(l.medianMs / s.medianMs).toFixed(2)}`,
  );
  console.log(`target: ${large} spans rendered in under 1000 ms: ${l.medianMs < 1000 ? 'met' : 'missed'}`);
} finally {
  await context.close();
  rmSync(profile, {recursive: true, force: true});
  if (process.env.BENCH_KEEP === undefined) rmSync(base, {recursive: true, force: true});
  else console.log(`kept ${base}`);
}
