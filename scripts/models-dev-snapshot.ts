// The pinned Models.dev snapshot the generators read (the model identities and the price table). It is not part
// of the repository: it lives in `shared/data/models.dev` beside the checkout, or beside its parent folder (a
// checkout in a folder of clones). A clone without it keeps the generated files and skips the tests that
// regenerate them.
import {existsSync, readdirSync} from 'node:fs';
import {join, relative, resolve, sep} from 'node:path';

const repository = resolve(import.meta.dirname, '..');

/** The snapshot's folder, or undefined when it is not beside this checkout. */
export function findModelsDevSnapshot(): string | undefined {
  return [resolve(repository, '..'), resolve(repository, '..', '..')]
    .map((folder) => join(folder, 'shared', 'data', 'models.dev'))
    .find((folder) => existsSync(join(folder, 'REVISION')));
}

/** Path-style ids of the `.toml` files under `folder`, in sorted order (`openai/gpt-5` for `openai/gpt-5.toml`). */
export function listModelFiles(folder: string): {id: string; path: string}[] {
  const files: {id: string; path: string}[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, {withFileTypes: true}).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.toml'))
        files.push({id: relative(folder, path).slice(0, -5).split(sep).join('/'), path});
    }
  };
  walk(folder);
  return files;
}
