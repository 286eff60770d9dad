/**
 * Test case names: the file name of `<workflow>/tests/<case>.yaml` without its extension. A name given on the
 * command line follows the workflow-name rule of the manifest (lowercase kebab-case, at most 64 characters, no
 * device name Windows reserves), so the case file can exist on every system and is named as the user typed it.
 */
import {StratosError} from '../errors/index.ts';
import {nameProblem} from '../manifest/index.ts';

/** The extensions a case file may have; the first is the one `stratos runs record` writes. */
export const caseExtensions = ['.yaml', '.yml', '.json'] as const;

/**
 * Checks a case name given to a command (`--case <name>`).
 *
 * @throws StratosError `STRATOS_TEST_CASE_NAME_INVALID` naming the name (shortened when long) and the fix.
 */
export function assertCaseName(name: string, option = '--case'): void {
  const extension = caseExtensions.find((item) => name.toLowerCase().endsWith(item));
  const stem = extension === undefined ? undefined : name.slice(0, -extension.length);
  const problem =
    stem !== undefined && stem !== '' && nameProblem(stem, 'case') === undefined
      ? `it ends in '${extension}', the extension Stratos adds itself. Give ${option} ${stem}.`
      : nameProblem(name, 'case');
  if (problem === undefined) return;
  const shown = name.length > 80 ? `${name.slice(0, 40)}...(${name.length} characters)` : name;
  throw new StratosError(
    'STRATOS_TEST_CASE_NAME_INVALID',
    `The case name '${shown}' is invalid: ${problem} Case names follow the rule of workflow names, for example ${option} staged-greeting.`,
    {details: {case: shown}},
  );
}
