/**
 * Opens the authorization URL in a browser: the command in the BROWSER environment variable when it is set (it
 * receives the URL as its one argument, or in place of `%s`), else the platform's opener (`open` on macOS,
 * `xdg-open` elsewhere, `explorer` on Windows). The launch fails when the command cannot be started or exits with a
 * non-zero status before sign-in completes; a browser that keeps running is fine.
 */
import {describeError} from '../../internal/describe-error.ts';

export interface BrowserLaunch {
  /** Settles with the reason once the launch has failed; stays pending while it has not. */
  readonly failed: Promise<Error>;
  /** Stops watching the launched process (it is never killed: it may be the user's browser). */
  dispose(): void;
  /** The command that was started, for messages (`BROWSER` or the opener's name). */
  readonly command: string;
}

export interface OpenBrowserOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

export async function openBrowser(url: string, options: OpenBrowserOptions = {}): Promise<BrowserLaunch> {
  // Loaded on use: the authoring entry must not load node:child_process.
  const {spawn} = await import('node:child_process');
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const configured = env.BROWSER?.trim();
  let file: string;
  let args: string[];
  let label: string;
  if (configured !== undefined && configured !== '') {
    const words = splitCommand(configured);
    file = words[0]!;
    args = words.slice(1);
    if (args.some((arg) => arg.includes('%s'))) args = args.map((arg) => arg.replaceAll('%s', url));
    else args.push(url);
    label = `BROWSER command '${configured}'`;
  } else if (platform === 'darwin') {
    [file, args, label] = ['open', [url], "the platform opener 'open'"];
  } else if (platform === 'win32') {
    [file, args, label] = ['explorer.exe', [url], "the platform opener 'explorer.exe'"];
  } else {
    [file, args, label] = ['xdg-open', [url], "the platform opener 'xdg-open'"];
  }

  let settle: (error: Error) => void = () => {};
  const failed = new Promise<Error>((resolve) => {
    settle = resolve;
  });
  let watching = true;
  const fail = (error: Error) => {
    if (watching) settle(error);
    watching = false;
  };
  try {
    const child = spawn(file, args, {stdio: 'ignore', detached: platform !== 'win32', env});
    child.once('error', (error) => fail(new Error(`${label} could not be started: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code !== 0)
        fail(new Error(`${label} exited with ${code === null ? `signal ${signal}` : `status ${code}`}`));
    });
    child.unref();
  } catch (error) {
    fail(new Error(`${label} could not be started: ${describeError(error)}`));
  }
  return {
    failed,
    command: label,
    dispose: () => {
      watching = false;
    },
  };
}

/** Splits a command line on whitespace, honouring simple single and double quotes (no shell is involved). */
function splitCommand(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}
