/** `stratos runs open`: serves the local runs page until the signal fires, then stops it. */
import type {Diagnostic} from '../errors/index.ts';
import {openBrowser} from '../mcp/auth/open-browser.ts';
import {startRunsViewer} from '../viewer/start-runs-viewer.ts';
import {type HostOptions, resolveHost} from './host.ts';
import {showRun} from './runs.ts';

export interface OpenRunsOptions extends HostOptions {
  /** A run to open directly: its folder name, execution id or a unique prefix of either. */
  run?: string;
  /** Runs of every invocation directory, not only this one. */
  all?: boolean;
  /** The 127.0.0.1 port; default a free one. */
  port?: number;
  /** Open the page in the browser (BROWSER, else the platform's opener); default true. */
  browser?: boolean;
  /** Stops the page (Ctrl+C). */
  signal: AbortSignal;
  /** Called once the page is served, with its URL, and when the browser could not be opened. */
  onNotice?: (message: string) => void;
}

export interface OpenRunsResult {
  /** The page's URL with its per-launch token; it stops working when the command ends. */
  url: string;
  port: number;
  /** The folder name of the run the page opened on, when one was named. */
  runId?: string;
  /** Whether a browser was launched (its failure is a warning). */
  browserOpened: boolean;
  /** Requests the page answered, refused ones included. */
  requests: number;
}

/**
 * Starts the runs page on 127.0.0.1, opens it in the browser unless `browser: false`, and resolves once
 * `signal` fires and the server has stopped. Reads run records only.
 * @throws StratosError STRATOS_RUNS_NOT_FOUND / STRATOS_RUNS_AMBIGUOUS for `run`, STRATOS_VIEWER_PORT_UNAVAILABLE.
 */
export async function openRuns(
  options: OpenRunsOptions,
): Promise<{result: OpenRunsResult; warnings: Diagnostic[]}> {
  const host = resolveHost(options);
  const runId = options.run === undefined ? undefined : (await showRun(options.run, host)).run.runId;
  const viewer = await startRunsViewer({
    home: host.home,
    cwd: host.cwd,
    all: options.all === true,
    ...(runId === undefined ? {} : {includeRunId: runId}),
    ...(options.port === undefined ? {} : {port: options.port}),
  });
  const warnings: Diagnostic[] = [];
  try {
    const url = runId === undefined ? viewer.url : `${viewer.url}#/runs/${encodeURIComponent(runId)}`;
    options.onNotice?.(`Runs page: ${url} (Ctrl+C to stop)`);
    let browserOpened = false;
    let dispose = () => {};
    if (options.browser !== false && !options.signal.aborted) {
      const launch = await openBrowser(url, {env: host.env});
      browserOpened = true;
      dispose = launch.dispose;
      void launch.failed.then((error) => {
        browserOpened = false;
        const message = `The browser could not be opened for the runs page (${error.message}); open the printed URL yourself.`;
        warnings.push({code: 'STRATOS_VIEWER_BROWSER_FAILED', severity: 'warning', message});
        options.onNotice?.(message);
      });
    }
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      else options.signal.addEventListener('abort', () => resolve(), {once: true});
    });
    dispose();
    return {
      result: {
        url,
        port: viewer.port,
        ...(runId === undefined ? {} : {runId}),
        browserOpened,
        requests: viewer.requests,
      },
      warnings,
    };
  } finally {
    await viewer.close();
  }
}
