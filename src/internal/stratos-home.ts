/** `~/.stratos`, or `STRATOS_HOME` when set: every user-level path of Stratos starts here. */
import {homedir} from 'node:os';
import {join, resolve} from 'node:path';

export function resolveStratosHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.STRATOS_HOME;
  return override !== undefined && override !== '' ? resolve(override) : join(homedir(), '.stratos');
}
