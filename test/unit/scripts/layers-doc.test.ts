// The table of the layering rule in AGENTS.md is the one scripts/layers.ts renders: `npm run docs:layers` wrote
// it, and nobody edited either side alone.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import {layerTableMarkers, renderLayerTable} from '../../../scripts/layers.ts';

const doc = readFileSync(new URL('../../../AGENTS.md', import.meta.url), 'utf8');

/** A Markdown table's lines without the padding the formatter adds: cells trimmed, rules as `---`. */
function normalizeTable(table: string): string[] {
  return table
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .map((cell) => cell.trim().replace(/^-+$/, '---'))
        .join('|'),
    );
}

test('AGENTS.md holds the layer table of scripts/layers.ts between its markers (npm run docs:layers)', () => {
  const start = doc.indexOf(layerTableMarkers.start);
  const end = doc.indexOf(layerTableMarkers.end);
  assert.ok(start !== -1 && end > start, 'AGENTS.md has both markers, in order');
  const documented = normalizeTable(doc.slice(start + layerTableMarkers.start.length, end));
  assert.deepEqual(documented, normalizeTable(renderLayerTable()));
});
