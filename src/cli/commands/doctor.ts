/** `stratos doctor`: every check of the setup with its fix; exit 1 when one needs fixing. */
import {type CheckSetupResult, checkSetup} from '../../api/check-setup.ts';
import {StratosError} from '../../errors/index.ts';
import type {CommandContext, CommandHandler} from './command.ts';

export const doctorCommand: CommandHandler = async (_command, context) => {
  const result = await checkSetup({cwd: context.cwd, env: context.env});
  const {problems, warnings} = result.summary;
  const human = formatChecks(result, context);
  if (!result.ok) {
    return {
      ok: false,
      error: new StratosError(
        'STRATOS_DOCTOR_PROBLEMS',
        `${count(problems, 'problem')} ${problems === 1 ? 'needs' : 'need'} fixing (and ${count(warnings, 'warning')}); each says how above. Run 'stratos doctor' again after fixing.`,
        {details: {...result}},
      ),
      warnings: [],
      human,
    };
  }
  return {
    ok: true,
    message: warnings === 0 ? 'All checks passed' : `No problems, ${count(warnings, 'warning')}`,
    data: result,
    warnings: [],
    human: `${human}${warnings === 0 ? 'All checks passed.' : `No problems; ${count(warnings, 'warning')} about what some workflows may need.`}\n`,
  };
};

const marks = {ok: '✓', warning: '!', problem: '✗'} as const;
const styles = {ok: 'green', warning: 'yellow', problem: 'red'} as const;

function formatChecks(result: CheckSetupResult, context: CommandContext): string {
  const lines: string[] = [];
  for (const check of result.checks) {
    lines.push(`${context.paint(marks[check.status], styles[check.status])} ${check.area}: ${check.message}`);
    if (check.fix !== undefined) lines.push(`  fix: ${check.fix}`);
  }
  return `${lines.join('\n')}\n`;
}

function count(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}
