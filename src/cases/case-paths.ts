/**
 * A case names the machine it runs on by placeholder, never by absolute path, so a recorded case replays on any
 * checkout: `{workflow}` is the workflow folder, `{cwd}` the invocation directory, `{home}` the user's home
 * directory. `stratos runs record` writes them in place of those paths (in every string and key of the case), and
 * `stratos test` puts the paths of the machine it runs on back before the case is used.
 */
import {homedir} from 'node:os';
import {dirname} from 'node:path';

/** The machine paths a case may name, by placeholder. */
export interface CasePaths {
  workflow: string;
  cwd: string;
  home: string;
}

const placeholders = {workflow: '{workflow}', cwd: '{cwd}', home: '{home}'} as const;

/** The paths of this process for a workflow folder and an invocation directory. */
export function casePathsOf(workflow: string, cwd: string, home = homedir()): CasePaths {
  return {workflow, cwd, home};
}

/**
 * `value` with each of the paths replaced by its placeholder, longest path first (a workflow folder inside the
 * invocation directory becomes `{workflow}`), only where a whole path ends: `/repo` in `/repo2` stays. A root
 * path (`/`, `C:\`) is never replaced.
 */
export function replaceMachinePaths(value: unknown, paths: CasePaths): unknown {
  const pairs = (Object.keys(placeholders) as (keyof CasePaths)[])
    .map((key) => [paths[key], placeholders[key]] as const)
    .filter(([path]) => path !== '' && dirname(path) !== path)
    .sort((a, b) => b[0].length - a[0].length);
  return mapStrings(value, (text) => {
    let result = text;
    for (const [path, placeholder] of pairs) result = replacePath(result, path, placeholder);
    return result;
  });
}

/** `value` with every placeholder replaced by the path of this machine. */
export function expandPathPlaceholders(value: unknown, paths: CasePaths): unknown {
  return mapStrings(value, (text) =>
    text.includes('{')
      ? text
          .replaceAll(placeholders.workflow, paths.workflow)
          .replaceAll(placeholders.cwd, paths.cwd)
          .replaceAll(placeholders.home, paths.home)
      : text,
  );
}

/**
 * `text` cut to at most `length` characters without splitting a placeholder (a prompt's recorded beginning).
 */
export function sliceKeepingPlaceholders(text: string, length: number): string {
  const cut = text.slice(0, length);
  const open = cut.lastIndexOf('{');
  if (open === -1 || cut.indexOf('}', open) !== -1) return cut;
  const split = Object.values(placeholders).some((placeholder) => text.startsWith(placeholder, open));
  return split ? cut.slice(0, open) : cut;
}

function replacePath(text: string, path: string, placeholder: string): string {
  let result = '';
  let from = 0;
  for (let at = text.indexOf(path); at !== -1; at = text.indexOf(path, at + 1)) {
    const next = text[at + path.length];
    // A whole path: what follows is the end, a separator or no file-name character.
    if (next !== undefined && /[\w.\-~]/.test(next)) continue;
    result += text.slice(from, at) + placeholder;
    from = at + path.length;
    at = from - 1;
  }
  return result + text.slice(from);
}

/** A copy of a JSON value with `map` applied to every string and key; own keys (`__proto__` too) stay keys. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties, so a key such as __proto__ cannot change the object's prototype.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map)]));
}
