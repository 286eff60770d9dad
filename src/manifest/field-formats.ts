/** The formats of the identity fields of workflow.yaml: name, version and entrypoint. */

/** Lowercase kebab-case workflow names (docs/contributing/design-decisions.md "Manifest fields"). */
export const workflowNamePattern = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** The longest workflow name, in characters. */
export const workflowNameMaxLength = 64;

/**
 * Names Windows reserves for devices, in any case and with any extension: a workflow or MCP server named so
 * cannot have its generated files (`.generated/<name>.ts`, `generated/mcp/<name>.ts`) on that system.
 */
const reservedDeviceName = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** True for `con`, `nul`, `aux`, `prn`, `com1` ... `lpt9` (any case). */
export function isReservedDeviceName(name: string): boolean {
  return reservedDeviceName.test(name);
}

/** The grammar of semver.org 2.0.0 (its suggested regular expression), without a leading `v`. */
const semanticVersionPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** The entrypoint when the manifest names none. */
export const defaultEntrypoint = 'workflow.ts';

/**
 * Why a workflow name is invalid, as a sentence, or undefined when it is valid. Test case names (the file names
 * under `<workflow>/tests/`) follow the same rule; `subject` words the device-name advice for them.
 *
 * @example
 * nameProblem('pr-review'); // undefined
 * nameProblem('PR_Review'); // "it must be lowercase kebab-case ..."
 */
export function nameProblem(name: string, subject: 'workflow' | 'case' = 'workflow'): string | undefined {
  if (name.length > workflowNameMaxLength) {
    return `it has ${name.length} characters; the limit is ${workflowNameMaxLength}. Shorten it.`;
  }
  if (isReservedDeviceName(name)) {
    const files = subject === 'workflow' ? 'its generated files' : 'its case file';
    return `'${name}' is a device name Windows reserves, so ${files} could not exist there. Choose another name, such as '${name}-${subject}'.`;
  }
  if (!workflowNamePattern.test(name)) {
    const suggestion = suggestWorkflowName(name);
    const example = suggestion === undefined ? '' : ` such as '${suggestion}'`;
    return (
      'it must be lowercase kebab-case: a lowercase letter first, then lowercase letters and digits, ' +
      `with single hyphens between words${example}.`
    );
  }
  return undefined;
}

/** True for a semantic version string such as `1.0.0` or `2.1.0-beta.1+build.5`. */
export function isSemanticVersion(version: string): boolean {
  return semanticVersionPattern.test(version);
}

/** C0 and C1 control characters and DEL: a path holding one cannot name a file (NUL) or prints badly. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/u;

/**
 * The folder Stratos owns that an authored path (relative to the workflow folder) lies in, or undefined: `dist/`
 * and `generated/` (a build writes and clears them), `.generated/` (the name of the root's child-wrapper folder)
 * and `node_modules/` (packages, never authored code). The first folder
 * counts for `dist`, `generated` and `.generated`, any folder for `node_modules`; names compare the way
 * case-insensitive file systems do (any case, and Windows drops trailing dots and spaces), after `.` and empty
 * parts are skipped.
 */
export function ownedFolderOf(path: string): string | undefined {
  const names = path
    .split(/[\\/]/)
    .slice(0, -1)
    .filter((part) => part !== '' && part !== '.')
    .map((part) => part.replace(/[. ]+$/, '').toLowerCase());
  const first = names[0];
  if (first !== undefined && ['dist', 'generated', '.generated'].includes(first)) return `${first}/`;
  return names.includes('node_modules') ? 'node_modules/' : undefined;
}

/**
 * Why an entrypoint path is invalid, as a sentence, or undefined when it is a relative `.ts` path that stays
 * inside the workflow folder and outside the folders Stratos owns. Both separators count, so a manifest written on
 * Windows is judged the same.
 */
export function entrypointProblem(entrypoint: string): string | undefined {
  if (entrypoint.trim() === '') return 'it is empty. Name the TypeScript file, such as workflow.ts.';
  if (controlCharacter.test(entrypoint)) {
    return 'it holds a control character (such as NUL or a line break), which no file name may hold. Name the TypeScript file, such as workflow.ts.';
  }
  if (/^[\\/]/.test(entrypoint) || /^[A-Za-z]:/.test(entrypoint) || entrypoint.startsWith('~')) {
    return 'it is an absolute path. Write it relative to the workflow folder, such as workflow.ts.';
  }
  if (entrypoint.split(/[\\/]/).includes('..')) {
    return "it leaves the workflow folder with '..'. Move the file inside the workflow folder.";
  }
  const owned = ownedFolderOf(entrypoint);
  if (owned !== undefined) {
    return `it is inside ${owned}, a folder Stratos writes and clears on every build, so the file would be lost. Move it outside ${owned}, such as src/main.ts.`;
  }
  if (entrypoint.endsWith('.d.ts')) {
    return 'it is a declaration file (.d.ts), which holds no code. Name the .ts file that default-exports the workflow.';
  }
  if (!entrypoint.endsWith('.ts') || /[\\/]$/.test(entrypoint.slice(0, -3)) || entrypoint === '.ts') {
    return 'it must name a TypeScript file ending in .ts, such as workflow.ts.';
  }
  return undefined;
}

/** A kebab-case spelling of an invalid name, when one exists: `PR_Review` becomes `pr-review`. */
function suggestWorkflowName(name: string): string | undefined {
  const candidate = name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '');
  return candidate !== '' && candidate.length <= workflowNameMaxLength && workflowNamePattern.test(candidate)
    ? candidate
    : undefined;
}
