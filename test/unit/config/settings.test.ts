import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {defaultSettings, parseSettings, readSettings} from '../../../src/config/settings.ts';

test('missing file means defaults; fields override one by one', async () => {
  const home = await mkdtemp(join(tmpdir(), 'stratos-settings-'));
  try {
    assert.deepEqual(await readSettings(home), defaultSettings);
    await writeFile(join(home, 'settings.json'), '{"retention": {"perWorkspace": 3}, "other": {"x": 1}}');
    assert.deepEqual(await readSettings(home), {
      agents: {maxActive: 10, maxOutstanding: 100},
      retention: {perWorkspace: 3, total: 100},
    });
  } finally {
    await rm(home, {recursive: true, force: true});
  }
});

test('malformed settings are STRATOS_SETTINGS_INVALID naming the field', () => {
  for (const [text, pattern] of [
    ['{', /not valid JSON/],
    ['[]', /one JSON object/],
    ['{"retention": 5}', /"retention" must be an object/],
    ['{"retention": {"total": 0}}', /"retention.total" must be a positive integer/],
    ['{"agents": {"maxActiv": 3}}', /"agents.maxActiv" is not a known setting/],
  ] as const) {
    assert.throws(
      () => parseSettings(text, '/h/settings.json'),
      (error: {code: string; message: string}) => {
        assert.equal(error.code, 'STRATOS_SETTINGS_INVALID');
        assert.match(error.message, pattern);
        return true;
      },
    );
  }
});
