// A temporary project on disk: an invocation directory with .stratos/workflows/ and its own STRATOS_HOME, so no
// test touches the real home directory. Workflows are written from plain file maps.
import {mkdir, mkdtemp, realpath, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {type CliResult, runCli} from './run-cli.ts';

export interface TempProject {
  /** The invocation directory. */
  cwd: string;
  /** STRATOS_HOME for this project. */
  home: string;
  projectRoot: string;
  userRoot: string;
  env: NodeJS.ProcessEnv;
  /** Writes files relative to the project root (`<name>/workflow.yaml` ...). */
  writeWorkflow(name: string, files: Record<string, string>, root?: 'project' | 'user'): Promise<string>;
  write(path: string, content: string): Promise<void>;
  cli(
    args: readonly string[],
    options?: {env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number},
  ): Promise<CliResult>;
  remove(): Promise<void>;
}

export async function createTempProject(prefix = 'stratos-test-'): Promise<TempProject> {
  const base = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const cwd = join(base, 'work');
  const home = join(base, 'home');
  const projectRoot = join(cwd, '.stratos', 'workflows');
  const userRoot = join(home, 'workflows');
  await mkdir(projectRoot, {recursive: true});
  await mkdir(userRoot, {recursive: true});
  const env = {STRATOS_HOME: home, HOME: join(base, 'os-home'), CI: '1'};
  await mkdir(env.HOME, {recursive: true});
  const write = async (path: string, content: string) => {
    await mkdir(dirname(path), {recursive: true});
    await writeFile(path, content);
  };
  return {
    cwd,
    home,
    projectRoot,
    userRoot,
    env,
    async writeWorkflow(name, files, root = 'project') {
      const directory = join(root === 'project' ? projectRoot : userRoot, name);
      for (const [file, content] of Object.entries(files)) await write(join(directory, file), content);
      return directory;
    },
    write: (path, content) => write(join(cwd, path), content),
    cli: (args, options = {}) =>
      runCli(args, {
        cwd: options.cwd ?? cwd,
        env: {...env, ...options.env},
        ...(options.timeoutMs === undefined ? {} : {timeoutMs: options.timeoutMs}),
      }),
    remove: () => rm(base, {recursive: true, force: true}),
  };
}

/** A valid manifest for `name`, with fields replaced or added from `extra` (raw YAML lines). */
export function manifest(name: string, extra = ''): string {
  return `name: ${name}\nshortDescription: Test workflow ${name}.\nlongDescription: Used by the Stratos tests.\nversion: "1.0.0"\n${extra}`;
}

/** A small valid entrypoint: echoes its text input, upper-cased. */
export const echoWorkflow = `import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';

export default workflow({
  input: z.strictObject({text: z.string().describe('Text to echo')}),
  output: z.object({echo: z.string().describe('The text, upper-cased')}),
  run({text}) {
    return {echo: text.toUpperCase()};
  },
});
`;
