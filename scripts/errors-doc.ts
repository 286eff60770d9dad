// Rewrites the code tables of docs/errors.md from src/errors/codes.ts: one section per `// area` comment of the
// table, in its order. The page's introduction (everything before the first `## `) is kept as written, and so is
// a note paragraph written directly under a section heading. Run with `npm run docs:errors`.
import {readFileSync, writeFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {errorCodes} from '../src/errors/codes.ts';

const repo = resolve(import.meta.dirname, '..');
const docPath = resolve(repo, 'docs', 'errors.md');
const source = readFileSync(resolve(repo, 'src', 'errors', 'codes.ts'), 'utf8');
const doc = readFileSync(docPath, 'utf8');

// Sections in table order: a `// heading` line starts one; every code key after it belongs to it.
const sections: {title: string; codes: string[]}[] = [];
for (const line of source.split('\n')) {
  const heading = /^ {2}\/\/ (.+)$/.exec(line);
  if (heading !== null) {
    const title = heading[1]!;
    sections.push({title: title.charAt(0).toUpperCase() + title.slice(1), codes: []});
    continue;
  }
  const code = /^ {2}(STRATOS_[A-Z0-9_]+):/.exec(line);
  if (code !== null) sections.at(-1)?.codes.push(code[1]!);
}

// Notes: the paragraphs between a section heading and its table in the current page.
const notes = new Map<string, string>();
for (const match of doc.matchAll(/^## (.+)\n\n((?:(?!\|)[^\n]+\n)+)\n/gm)) notes.set(match[1]!, match[2]!);

const intro = doc.slice(0, doc.indexOf('\n## ') + 1);
const escapeCell = (text: string) => text.replaceAll('|', '\\|');
let out = intro;
for (const section of sections) {
  out += `\n## ${section.title}\n\n`;
  const note = notes.get(section.title);
  if (note !== undefined) out += `${note}\n`;
  out += '| code | meaning |\n| --- | --- |\n';
  for (const code of section.codes) {
    out += `| \`${code}\` | ${escapeCell(errorCodes[code as keyof typeof errorCodes])} |\n`;
  }
}
writeFileSync(docPath, out);
console.log(
  `docs/errors.md: ${sections.reduce((n, s) => n + s.codes.length, 0)} codes in ${sections.length} sections`,
);
