/** Reads `<workflowDir>/workflow.yaml` from disk and parses it; a file that cannot be read is a diagnostic. */
import {statSync} from 'node:fs';
import {join} from 'node:path';
import {FileTooLargeError, NotRegularFileError, readRegularFile} from '../internal/regular-file.ts';
import {MAX_MANIFEST_BYTES, manifestTooLarge} from './manifest-limits.ts';
import {type ManifestParseResult, parseManifest} from './parse-manifest.ts';

/** The manifest's file name inside a workflow folder. */
export const manifestFileName = 'workflow.yaml';

/**
 * Reads and validates the manifest of a workflow folder. Never throws for a missing, unreadable or non-UTF-8
 * file: that is a `STRATOS_MANIFEST_UNREADABLE` diagnostic located at the file.
 *
 * @example
 * const {manifest, diagnostics} = await readManifest('.stratos/workflows/pr-review');
 */
export async function readManifest(workflowDir: string): Promise<ManifestParseResult> {
  const file = join(workflowDir, manifestFileName);
  let bytes: Uint8Array;
  try {
    // Over the size cap: rejected without reading it (a 10 MB file of blank lines costs nothing). A FIFO or a
    // device is refused without reading it too.
    bytes = readRegularFile(file, {maxBytes: MAX_MANIFEST_BYTES});
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      const diagnostic = manifestTooLarge(file, statSync(file).size);
      return {manifest: undefined, diagnostics: [diagnostic], locate: () => ({file, line: 1, column: 1})};
    }
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? `there is no ${manifestFileName} in ${workflowDir}. Create one with name, shortDescription, longDescription and version.`
        : error instanceof NotRegularFileError
          ? `${file} is ${error.kind}, not a regular file. Replace it with the manifest file.`
          : `${(error as Error).message}. Check that the file exists and is readable.`;
    return unreadable(file, `workflow.yaml could not be read: ${reason}`);
  }
  let text: string;
  try {
    // Strict decoding: replacing bad bytes with U+FFFD would silently change descriptions and their lengths.
    text = new TextDecoder('utf-8', {fatal: true}).decode(bytes);
  } catch {
    return unreadable(
      file,
      `workflow.yaml could not be read: ${file} is not valid UTF-8 text. Save it as UTF-8.`,
    );
  }
  return parseManifest(text, file);
}

function unreadable(file: string, message: string): ManifestParseResult {
  return {
    manifest: undefined,
    diagnostics: [
      {code: 'STRATOS_MANIFEST_UNREADABLE', severity: 'error', message, location: {file, line: 1, column: 1}},
    ],
    locate: () => ({file, line: 1, column: 1}),
  };
}
