// The manifest cache of the last successful build: used only for the exact bytes it was made from.
import assert from 'node:assert/strict';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {readWorkflowFolder, writeManifestCache} from '../../../src/discovery/index.ts';

const yaml = (short: string) =>
  `name: cached\nshortDescription: ${short}\nlongDescription: Manual.\nversion: "1.0.0"\n`;

test('a cached manifest is reused for the same bytes and ignored once they change', async () => {
  const base = await mkdtemp(join(tmpdir(), 'stratos-manifest-cache-'));
  const directory = join(base, 'cached');
  const root = {kind: 'path' as const, directory: base};
  try {
    await mkdir(directory);
    await writeFile(join(directory, 'workflow.yaml'), yaml('First.'));
    const parsed = await readWorkflowFolder(directory, root);
    assert.equal(parsed?.manifest?.shortDescription, 'First.');
    // A cache entry that differs from what parsing gives proves which path discovery took.
    const marked = {...parsed!.manifest!, shortDescription: 'From the cache.'};
    await writeManifestCache(directory, parsed!.manifestHash, {manifest: marked, diagnostics: []});
    const hit = await readWorkflowFolder(directory, root);
    assert.equal(hit?.manifest?.shortDescription, 'From the cache.');
    assert.deepEqual(await hit!.locate(['shortDescription']), {
      file: join(directory, 'workflow.yaml'),
      line: 2,
      column: 19,
    });

    await writeFile(join(directory, 'workflow.yaml'), yaml('Second.'));
    const miss = await readWorkflowFolder(directory, root);
    assert.equal(miss?.manifest?.shortDescription, 'Second.');

    await writeFile(join(directory, 'workflow.yaml'), 'name: [unclosed\n');
    const broken = await readWorkflowFolder(directory, root);
    assert.equal(broken?.manifest, undefined);
    assert.equal(broken?.diagnostics[0]?.code, 'STRATOS_MANIFEST_YAML_INVALID');
  } finally {
    await rm(base, {recursive: true, force: true});
  }
});
