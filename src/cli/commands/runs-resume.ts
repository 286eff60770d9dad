/** `stratos runs resume <run>`: an interrupted run again, its journaled steps answered at once (docs/resume.md). */
import {resumeRun} from '../../api/resume-run.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandHandler} from './command.ts';
import {describeRunResult} from './run.ts';

export const runsResumeCommand: CommandHandler = async (command, context) => {
  const target = command.positionals[0];
  if (target === undefined) {
    throw new StratosError(
      'STRATOS_CLI_USAGE',
      "'stratos runs resume' needs a run id or an execution id prefix. Run 'stratos runs list' to see recent runs.",
    );
  }
  const result = await resumeRun(target, {
    cwd: context.cwd,
    env: context.env,
    allowChanged: command.values['allow-changed'] === true,
    onProgress: context.progress,
    onNotice: context.notice,
    signal: context.signal,
  });
  return describeRunResult(result, command.values.verbose === true, {
    resumedFrom: result.resumedFrom,
    journaledSteps: result.journaledSteps,
  });
};
