// One seam per harness: a harness id is named, and a harness folder imported, only inside that harness's folder
// (src/agents/harnesses/<id>/) and the registry (src/agents/harnesses/registry.ts). Everything else asks the
// registry. The scan reads the string and template literals of every source file under src/ (an import specifier
// is one too), so comments and prose never count.
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join, relative, sep} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';
import {harnessIds} from '../../../src/agents/harnesses/registry.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const src = join(root, 'src');

/**
 * Files that hold the same words as a different thing, each with its reason. Nothing else may name a harness.
 */
const allowed: Readonly<Record<string, string>> = {
  // The coding agents whose user skills folders `stratos skill install` links: a person's interactive agent and
  // its folder on disk, not a harness adapter (the list holds agents that have no adapter as easily).
  'src/skill/skill-agents.ts': 'skill agents, not harnesses',
  // Generated from the Models.dev snapshot: `opencode` there is a provider (OpenCode Zen) in the identity mapping.
  'src/providers/models/model-identities.ts': 'a provider id in generated data',
};

function listSources(folder: string): string[] {
  return readdirSync(folder, {withFileTypes: true}).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Every string and template literal text of a file, with its line: a small scanner that skips comments and regular
 * expression literals and reads the code inside `${...}` of a template as code.
 */
function findLiterals(text: string): {value: string; line: number}[] {
  const literals: {value: string; line: number}[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  // Brace depth of each open `${` (a `}` at that depth resumes the template).
  const templates: number[] = [];
  let depth = 0;
  let previous = '';
  let i = 0;
  const readTemplate = () => {
    const start = i;
    let value = '';
    while (i < text.length && text[i] !== '`' && !(text[i] === '$' && text[i + 1] === '{')) {
      value += text[i] === '\\' ? text[++i] : text[i];
      i += 1;
    }
    literals.push({value, line: lineAt(start)});
    if (text[i] === '`') i += 1;
    else {
      i += 2;
      templates.push(depth);
      depth += 1;
    }
    previous = 'x';
  };
  while (i < text.length) {
    const char = text[i]!;
    if (char === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i === -1) break;
    } else if (char === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 2;
    } else if (char === "'" || char === '"') {
      const start = i;
      let value = '';
      for (i += 1; i < text.length && text[i] !== char; i += 1)
        value += text[i] === '\\' ? text[++i] : text[i];
      i += 1;
      literals.push({value, line: lineAt(start)});
      previous = 'x';
    } else if (char === '`') {
      i += 1;
      readTemplate();
    } else if (char === '}' && templates.at(-1) === depth - 1) {
      templates.pop();
      depth -= 1;
      i += 1;
      readTemplate();
    } else if (char === '/' && (previous === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(previous))) {
      // A regular expression literal: skip it, classes included.
      let inClass = false;
      for (i += 1; i < text.length && (inClass || text[i] !== '/'); i += 1) {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
      }
      i += 1;
      previous = 'x';
    } else {
      if (char === '{') depth += 1;
      if (char === '}') depth -= 1;
      if (!/\s/.test(char)) previous = /[\w$)\]]/.test(char) ? 'x' : char;
      i += 1;
    }
  }
  return literals;
}

/** The harness ids a literal names: the whole literal, or a harness folder in a path. */
function namedHarnesses(value: string): string[] {
  return harnessIds.filter(
    (id) => value === id || new RegExp(`(^|/)harnesses/${id.replace(/[-]/g, '\\-')}(/|$)`).test(value),
  );
}

/** The harness whose folder holds `file`, or 'registry' for the registry, or undefined. */
function ownerOf(file: string): string | undefined {
  const match = /^src\/agents\/harnesses\/([^/]+)(\/|$)/.exec(file);
  if (match === null) return undefined;
  return match[1] === 'registry.ts' ? 'registry' : match[1];
}

/** Where a harness is named outside its own folder and the registry. */
function findSeamViolations(files: readonly string[]): string[] {
  const violations: string[] = [];
  for (const path of files) {
    const file = relative(root, path).split(sep).join('/');
    const owner = ownerOf(file);
    if (owner === 'registry' || file in allowed) continue;
    for (const literal of findLiterals(readFileSync(path, 'utf8')))
      for (const id of namedHarnesses(literal.value))
        if (id !== owner) violations.push(`${file}:${literal.line} names the harness '${id}'`);
  }
  return violations;
}

test('no code outside a harness folder and the registry names a harness or imports its folder', () => {
  assert.deepEqual(findSeamViolations(listSources(src)), []);
});

test('the scan finds a harness id literal, a harness folder import and a template, and skips comments', () => {
  const literals = findLiterals(
    [
      `// 'codex' in a comment`,
      `import {x} from './harnesses/opencode/tools.ts';`,
      `const a = harness === 'claude-code';`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text holding a template literal
      'const b = `${provider}/x` + `codex`;',
    ].join('\n'),
  );
  const named = literals.flatMap((literal) => namedHarnesses(literal.value));
  assert.deepEqual(named, ['opencode', 'claude-code', 'codex']);
});

test('every allow-listed file exists and gives its reason', () => {
  const files = new Set(listSources(src).map((path) => relative(root, path).split(sep).join('/')));
  for (const [file, reason] of Object.entries(allowed)) {
    assert.ok(files.has(file), `${file} is allow-listed but does not exist`);
    assert.ok(reason.trim() !== '');
  }
});
