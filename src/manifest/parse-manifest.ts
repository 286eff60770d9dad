/** workflow.yaml text to a validated manifest, with every problem found and a locator for later modules. */
import {isMap, isScalar, LineCounter, parseDocument, visit, type YAMLError} from 'yaml';
import {type Diagnostic, hasErrors, type SourceLocation} from '../errors/index.ts';
import {
  createManifestLocator,
  type LocateTarget,
  type ManifestPath,
  nodeLocation,
  offsetLocation,
} from './locate.ts';
import {capManifestDiagnostics, checkManifestDepth, checkManifestSize} from './manifest-limits.ts';
import type {WorkflowManifest} from './types.ts';
import {validateManifestFields} from './validate-fields.ts';
import {createValidationContext, quote} from './validation-context.ts';
import {type AliasProblem, indexAliases, MAX_YAML_ALIAS_VALUES, MAX_YAML_ALIASES} from './yaml-aliases.ts';

/** The outcome of parsing one workflow.yaml. */
export interface ManifestParseResult {
  /** The validated manifest; set only when no diagnostic has severity 'error'. */
  manifest: WorkflowManifest | undefined;
  /** Every error and warning found, in source order. */
  diagnostics: Diagnostic[];
  /**
   * The 1-based line and column of the node at a path such as `['mcp', 'servers', 'github', 'url']`, falling back
   * to the nearest existing ancestor and then to line 1, column 1.
   */
  locate(path: ManifestPath, target?: LocateTarget): SourceLocation;
}

/**
 * Parses and validates workflow.yaml text. Never throws for bad input: malformed YAML, a wrong shape or wrong
 * fields become diagnostics (codes `STRATOS_MANIFEST_*`), all of them reported together.
 *
 * @param text The file's text.
 * @param file The path put into every diagnostic location.
 * @example
 * const {manifest, diagnostics} = parseManifest('name: hello\n...', 'hello/workflow.yaml');
 * if (manifest === undefined) for (const d of diagnostics) console.error(d.message);
 */
export function parseManifest(text: string, file: string): ManifestParseResult {
  // Limits first, in linear time: a hostile manifest is rejected before the parser or validator sees it.
  const limit = checkManifestSize(text, file) ?? checkManifestDepth(text, file);
  if (limit !== undefined) {
    return {
      manifest: undefined,
      diagnostics: [limit],
      locate: () => limit.location ?? {file, line: 1, column: 1},
    };
  }
  const lineCounter = new LineCounter();
  // Duplicate keys are found below in one pass: the library's own check compares every pair of a mapping.
  const doc = parseDocument(text, {lineCounter, prettyErrors: false, strict: true, uniqueKeys: false});
  // Aliases are followed only through this index: the library's own lookup walks the document for each alias.
  const aliases = indexAliases(doc);
  const locate = createManifestLocator(doc, lineCounter, file, aliases);

  const yamlProblems = [...doc.errors, ...doc.warnings].map((error) =>
    yamlDiagnostic(error, text, file, lineCounter),
  );
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : undefined;
        if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean') continue;
        const name = String(key);
        if (!seen.has(name)) {
          seen.add(name);
          continue;
        }
        const location = nodeLocation(file, lineCounter, pair.key as never) ?? {file, line: 1, column: 1};
        yamlProblems.push({
          code: 'STRATOS_MANIFEST_YAML_INVALID',
          severity: 'error',
          message: `workflow.yaml has the key ${quote(name)} more than once in the same mapping (line ${location.line}, column ${location.column}). Keep only one of them.`,
          location,
        });
      }
    },
  });
  for (const problem of aliases.problems) yamlProblems.push(aliasDiagnostic(problem, file, lineCounter));
  if (yamlProblems.length > 0) {
    return {
      manifest: undefined,
      diagnostics: capManifestDiagnostics(sortBySource(yamlProblems), file),
      locate,
    };
  }

  if (!isMap(doc.contents)) {
    const empty = doc.contents === null;
    const message = empty
      ? 'workflow.yaml is empty. Write a mapping with at least name, shortDescription, longDescription and version.'
      : 'workflow.yaml must be a mapping of fields such as name: and version:, not a single value or a list. ' +
        'Write one field per line as key: value.';
    const diagnostic: Diagnostic = {
      code: 'STRATOS_MANIFEST_NOT_MAPPING',
      severity: 'error',
      message,
      location: nodeLocation(file, lineCounter, doc.contents) ?? {file, line: 1, column: 1},
    };
    return {manifest: undefined, diagnostics: [diagnostic], locate};
  }

  const ctx = createValidationContext({file, text, lineCounter, locate, aliases});
  const manifest = validateManifestFields(ctx, doc.contents);
  const diagnostics = capManifestDiagnostics(sortBySource(ctx.diagnostics), file);
  return {
    manifest: hasErrors(diagnostics) || manifest === undefined ? undefined : manifest,
    diagnostics,
    locate,
  };
}

function aliasDiagnostic(problem: AliasProblem, file: string, lineCounter: LineCounter): Diagnostic {
  const location = nodeLocation(file, lineCounter, problem.alias) ?? {file, line: 1, column: 1};
  const at = `(line ${location.line}, column ${location.column})`;
  const alias = `'*${problem.alias.source}'`;
  switch (problem.kind) {
    case 'unresolved':
      return {
        code: 'STRATOS_MANIFEST_YAML_INVALID',
        severity: 'error',
        message: `workflow.yaml uses the alias ${alias}, but no '&${problem.alias.source}' anchor comes before it. Define the anchor first or write the value out.`,
        location,
      };
    case 'recursive':
      return {
        code: 'STRATOS_MANIFEST_YAML_INVALID',
        severity: 'error',
        message: `workflow.yaml uses the alias ${alias} inside the value anchored as '&${problem.alias.source}' ${at}, so the value would contain itself. Write the value out instead.`,
        location,
      };
    case 'too-many':
      return {
        code: 'STRATOS_MANIFEST_ALIAS_LIMIT',
        severity: 'error',
        message: `workflow.yaml uses more than ${MAX_YAML_ALIASES.toLocaleString('en-US')} YAML aliases; the one over the limit is ${alias} ${at}. Write the values out or share fewer of them.`,
        location,
      };
    case 'too-large':
      return {
        code: 'STRATOS_MANIFEST_ALIAS_LIMIT',
        severity: 'error',
        message: `workflow.yaml's aliases stand for more than ${MAX_YAML_ALIAS_VALUES.toLocaleString('en-US')} values in all once expanded; the limit is passed at ${alias} ${at}. Nest fewer aliases inside anchored values.`,
        location,
      };
  }
}

function yamlDiagnostic(error: YAMLError, text: string, file: string, lineCounter: LineCounter): Diagnostic {
  const location = offsetLocation(file, lineCounter, error.pos[0]);
  const at = `line ${location.line}, column ${location.column}`;
  let message: string;
  if (error.code === 'DUPLICATE_KEY') {
    message = `workflow.yaml has the key ${duplicateKeyName(text, error.pos[0])} more than once in the same mapping (${at}). Keep only one of them.`;
  } else {
    const reason = error.message.replace(/\.?\s*$/, '');
    message = `workflow.yaml is not valid YAML at ${at}: ${reason}. Fix the syntax there.`;
  }
  return {code: 'STRATOS_MANIFEST_YAML_INVALID', severity: 'error', message, location};
}

/**
 * The key of a duplicate pair, read from the source: the library drops the second pair from the document, and
 * the error's own range covers only the key's first character.
 */
function duplicateKeyName(text: string, offset: number): string {
  const line = text.slice(offset).split(/\r?\n/, 1)[0] ?? '';
  const key = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|(.*?))\s*:(?:\s|$)/.exec(line);
  const name = key?.[1] ?? key?.[2]?.replaceAll("''", "'") ?? key?.[3];
  return name === undefined || name === '' ? 'shown there' : quote(name);
}

/** Source order reads best; the sort is stable, so findings at one position keep their validation order. */
function sortBySource(diagnostics: Diagnostic[]): Diagnostic[] {
  const position = (diagnostic: Diagnostic) => [
    diagnostic.location?.line ?? 0,
    diagnostic.location?.column ?? 0,
  ];
  return diagnostics.toSorted((a, b) => {
    const [lineA = 0, columnA = 0] = position(a);
    const [lineB = 0, columnB = 0] = position(b);
    return lineA - lineB || columnA - columnB;
  });
}
