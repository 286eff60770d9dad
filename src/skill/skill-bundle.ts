/** The bundled skill directory check, and the one message for a skills folder that cannot be written. */
import {stat} from 'node:fs/promises';
import {join} from 'node:path';
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import type {SkillFolder} from './skill-agents.ts';

/** Fails with `STRATOS_SKILL_BUNDLE_MISSING` when `<bundle>/SKILL.md` is not a file. */
export async function checkSkillBundle(bundle: string): Promise<void> {
  const file = join(bundle, 'SKILL.md');
  const ok = await stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!ok) {
    throw new StratosError(
      'STRATOS_SKILL_BUNDLE_MISSING',
      `The bundled skill ${file} is missing from this Stratos package. Reinstall @stratoscli/stratos, then run the command again.`,
      {details: {bundle}},
    );
  }
}

/** A failed link creation or removal in an agent's skills folder, as `STRATOS_SKILL_FOLDER_UNUSABLE`. */
export function folderError(folder: SkillFolder, path: string, error: unknown): StratosError {
  const code = (error as NodeJS.ErrnoException).code;
  const readOnly = code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
  const reason = readOnly ? `the folder is not writable (${code})` : `${describeError(error)}`;
  return new StratosError(
    'STRATOS_SKILL_FOLDER_UNUSABLE',
    `Cannot change ${path} for ${folder.label}: ${reason}. Make ${folder.folder} writable for your user, then run the command again.`,
    {
      cause: error,
      details: {
        agent: folder.agent,
        folder: folder.folder,
        path,
        ...(code === undefined ? {} : {errno: code}),
      },
    },
  );
}
