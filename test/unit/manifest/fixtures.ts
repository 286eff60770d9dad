/** Shared manifest texts and result helpers for the manifest unit tests. */
import assert from 'node:assert/strict';
import type {Diagnostic} from '../../../src/errors/index.ts';
import type {ManifestParseResult} from '../../../src/manifest/index.ts';
import {parseManifest} from '../../../src/manifest/index.ts';

export const file = 'flows/pr-review/workflow.yaml';

/** A valid four-line manifest; extra YAML appended to it starts on line 5. */
export const baseManifest = [
  'name: pr-review',
  'shortDescription: Format a pull-request review request.',
  'longDescription: Supply repo in owner/name format and a positive pr_number.',
  'version: "1.0.0"',
  '',
].join('\n');

/** Parses the base manifest followed by extra lines. */
export function parseWith(extra: string): ManifestParseResult {
  return parseManifest(baseManifest + extra, file);
}

/** The codes of all diagnostics, in order. */
export function codesOf(result: ManifestParseResult): string[] {
  return result.diagnostics.map((diagnostic) => diagnostic.code);
}

/** The one diagnostic with this code; fails when there is none or more than one. */
export function onlyDiagnostic(result: ManifestParseResult, code: string): Diagnostic {
  const found = result.diagnostics.filter((diagnostic) => diagnostic.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(result.diagnostics, null, 2)}`);
  return found[0]!;
}

/** Asserts a diagnostic's 1-based position and dotted path. */
export function assertAt(diagnostic: Diagnostic, line: number, column: number, path?: string): void {
  assert.deepEqual(diagnostic.location, {file, line, column}, diagnostic.message);
  if (path !== undefined) assert.equal(diagnostic.path, path);
}

/** Asserts the result is valid: a manifest and no error diagnostics. */
export function assertValid(result: ManifestParseResult): void {
  const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  assert.deepEqual(errors, []);
  assert.ok(result.manifest, 'expected a manifest');
}

/** Asserts the result has errors and therefore no manifest. */
export function assertInvalid(result: ManifestParseResult): void {
  assert.ok(
    result.diagnostics.some((diagnostic) => diagnostic.severity === 'error'),
    'expected at least one error',
  );
  assert.equal(result.manifest, undefined);
}

/** A YAML double-quoted scalar of a string (JSON strings are valid YAML double-quoted scalars). */
export function yamlString(text: string): string {
  return JSON.stringify(text);
}

/** A manifest whose short and long descriptions are given as exact strings. */
export function manifestWithDescriptions(shortDescription: string, longDescription = 'Manual.'): string {
  return [
    'name: pr-review',
    `shortDescription: ${yamlString(shortDescription)}`,
    `longDescription: ${yamlString(longDescription)}`,
    'version: "1.0.0"',
    '',
  ].join('\n');
}
