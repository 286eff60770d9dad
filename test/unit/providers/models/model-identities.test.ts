// The shipped identity mapping is exactly what the generator makes from the pinned Models.dev snapshot, and its
// links are explicit ones only.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {test} from 'node:test';
import {generateModelIdentities} from '../../../../scripts/generate-model-identities.ts';
import {findModelsDevSnapshot} from '../../../../scripts/models-dev-snapshot.ts';
import {modelCatalogRevision, modelIdentities} from '../../../../src/providers/models/model-identities.ts';
import {parseModelIdentity, resolveNativeModelId} from '../../../../src/providers/models/model-identity.ts';

const repository = resolve(import.meta.dirname, '..', '..', '..', '..');
const found = findModelsDevSnapshot();
const snapshot = found ?? '';
// The snapshot lives beside the checkout (scripts/models-dev-snapshot.ts), not in the repository; a clone elsewhere skips the
// two checks that read it (the mapping itself is still checked below).
const withSnapshot = {
  skip: found !== undefined ? false : 'the pinned Models.dev snapshot is not beside this checkout',
};

test(
  'the committed mapping equals a fresh generation from the snapshot, with its revision',
  withSnapshot,
  () => {
    const committed = readFileSync(resolve(repository, 'src/providers/models/model-identities.ts'), 'utf8');
    assert.equal(committed, generateModelIdentities(snapshot));
    assert.equal(modelCatalogRevision, readFileSync(resolve(snapshot, 'REVISION'), 'utf8').trim());
  },
);

test("the creator's own provider serves the identical id; base_model links map other providers", async () => {
  assert.equal(await resolveNativeModelId('anthropic/claude-sonnet-4-5', 'anthropic'), 'claude-sonnet-4-5');
  assert.equal(await resolveNativeModelId('openai/gpt-5', 'openai'), 'gpt-5');
  // openrouter's file names the identity in base_model; its own id differs in punctuation.
  assert.equal(
    await resolveNativeModelId('anthropic/claude-sonnet-4-5', 'openrouter'),
    'anthropic/claude-sonnet-4.5',
  );
  // Several Bedrock ids link to it: the first in sorted file order wins.
  assert.equal(
    await resolveNativeModelId('anthropic/claude-sonnet-4-5', 'amazon-bedrock'),
    'au.anthropic.claude-sonnet-4-5-20250929-v1:0',
  );
});

test(
  'no link from similar names: a provider file without base_model maps nothing',
  withSnapshot,
  async () => {
    // providers/azure/models/gpt-5.toml has the same name as openai's but no base_model link.
    const azure = readFileSync(resolve(snapshot, 'providers/azure/models/gpt-5.toml'), 'utf8');
    assert.doesNotMatch(azure, /^base_model/m);
    assert.equal(await resolveNativeModelId('openai/gpt-5', 'azure'), undefined);
    assert.equal(await resolveNativeModelId('openai/gpt-5-preview-guess', 'openai'), undefined);
    assert.equal(Object.hasOwn(modelIdentities, 'constructor'), false);
    assert.equal(await resolveNativeModelId('constructor', 'openai'), undefined);
  },
);

test('parseModelIdentity splits creator and model, and rejects native ids', () => {
  assert.deepEqual(parseModelIdentity('openai/gpt-5'), {
    identity: 'openai/gpt-5',
    creator: 'openai',
    model: 'gpt-5',
  });
  assert.equal(parseModelIdentity('gpt-5'), undefined);
  assert.equal(parseModelIdentity('/gpt-5'), undefined);
  assert.equal(parseModelIdentity('openai/'), undefined);
});

test('docs/agents.md names the revision the mapping was generated from', () => {
  const page = readFileSync(resolve(repository, 'docs', 'agents.md'), 'utf8');
  assert.ok(page.includes(modelCatalogRevision), `docs/agents.md names ${modelCatalogRevision}`);
});
