// The OpenCode effort levels of the harness registry against the real opencode binary: every variant its bundled
// model catalog defines for the main providers is an accepted `effort`, and every accepted `effort` is a variant
// of at least one model (no level Stratos accepts that OpenCode never applies).
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {mkdtemp, rm} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {test} from 'node:test';
import {promisify} from 'node:util';
import {findHarness} from '../../../src/agents/harnesses/registry.ts';

const run = promisify(execFile);

function openCodeBinary(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('opencode-ai/package.json');
  return join(dirname(manifest), (require(manifest) as {bin: {opencode: string}}).bin.opencode);
}

/**
 * `opencode models <provider> --verbose`: each model's name line, then its JSON pretty-printed, whose closing brace
 * is the only `}` at the start of a line. Anything printed between the blocks is ignored.
 */
function variantsOf(output: string): Map<string, string[]> {
  const models = new Map<string, string[]>();
  for (const block of output.split(/^\}$/m)) {
    const start = block.indexOf('\n{');
    if (start < 0) continue;
    const name = block.slice(0, start).trim().split('\n').at(-1)!.trim();
    const model = JSON.parse(`${block.slice(start + 1)}}`) as {variants?: Record<string, unknown>};
    models.set(name, Object.keys(model.variants ?? {}));
  }
  return models;
}

test('opencode: the registry effort levels are the variants the binary defines', async () => {
  const base = await mkdtemp(join('/var/tmp', 'stratos-opencode-variants-'));
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: base,
      XDG_CONFIG_HOME: join(base, 'config'),
      XDG_DATA_HOME: join(base, 'data'),
      XDG_CACHE_HOME: join(base, 'cache'),
      XDG_STATE_HOME: join(base, 'state'),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENAI_API_KEY: 'sk-test',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      GOOGLE_GENERATIVE_AI_API_KEY: 'test',
    };
    const defined = new Set<string>();
    for (const provider of ['openai', 'anthropic', 'google']) {
      const {stdout} = await run(openCodeBinary(), ['models', provider, '--verbose'], {
        env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      });
      const models = variantsOf(stdout.trim());
      assert.ok(models.size > 0, `the binary lists ${provider} models`);
      for (const variants of models.values()) for (const variant of variants) defined.add(variant);
    }
    const accepted: readonly string[] = findHarness('opencode').effortLevels;
    assert.deepEqual(
      [...defined].filter((variant) => !accepted.includes(variant)),
      [],
      'every variant is an accepted effort',
    );
    assert.deepEqual(
      accepted.filter((level) => !defined.has(level)),
      [],
      'every accepted effort is a variant of some model',
    );
  } finally {
    await rm(base, {recursive: true, force: true});
  }
});
