// Rewrites the table of the layering rule in AGENTS.md from scripts/layers.ts: the block between the
// `layerTableMarkers`; the rest of the page is kept as written. Run with `npm run docs:layers`.
import {readFileSync, writeFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {allowedImports, layerTableMarkers, renderLayerTable} from './layers.ts';

const docPath = resolve(import.meta.dirname, '..', 'AGENTS.md');
const doc = readFileSync(docPath, 'utf8');
const start = doc.indexOf(layerTableMarkers.start);
const end = doc.indexOf(layerTableMarkers.end);
if (start === -1 || end < start) {
  console.error(
    `AGENTS.md has no generated layer table. Put the lines ${layerTableMarkers.start} and ${layerTableMarkers.end} where it belongs, then run npm run docs:layers again.`,
  );
  process.exit(1);
}
const before = doc.slice(0, start + layerTableMarkers.start.length);
writeFileSync(docPath, `${before}\n\n${renderLayerTable()}\n\n${doc.slice(end)}`);
console.log(`AGENTS.md: ${Object.keys(allowedImports).length} layers`);
