/** `stratos runs open [run]`: the local runs page, served until Ctrl+C. */
import {openRuns} from '../../api/open-runs.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandHandler} from './command.ts';

/**
 * The URL goes to stderr as soon as the page is served (also in --json mode, where stdout holds only the one
 * envelope); the envelope or the readable summary follows when the command stops.
 */
export const runsOpenCommand: CommandHandler = async (command, context) => {
  const port = parsePort(command.values.port);
  const {result, warnings} = await openRuns({
    cwd: context.cwd,
    env: context.env,
    all: command.values.all === true,
    browser: command.values['no-browser'] !== true,
    signal: context.signal,
    onNotice: context.notice,
    ...(command.positionals[0] === undefined ? {} : {run: command.positionals[0]}),
    ...(port === undefined ? {} : {port}),
  });
  const served = `${result.requests} ${result.requests === 1 ? 'request' : 'requests'}`;
  return {
    ok: true,
    message: `Runs page stopped after ${served}`,
    data: result,
    warnings,
    human: `Stopped the runs page at ${result.url} (${served}).\n`,
  };
};

function parsePort(value: string | boolean | undefined): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      `--port must be a whole number from 1 to 65535; got '${value}'. Leave it out to use a free port.`,
    );
  }
  return port;
}
