/**
 * The short-lived background cleaner: `node retention-cleaner.js <home> <perWorkspace> <total>`. Started
 * detached after a top-level run so removing old runs never delays a result; it exits when done. Failures have
 * no one to report to but its own exit code: the next run's cleaner tries again.
 */
import {applyRetention} from './apply-retention.ts';

const [home, perWorkspace, total] = process.argv.slice(2);
if (home === undefined || !Number.isInteger(Number(perWorkspace)) || !Number.isInteger(Number(total))) {
  process.exitCode = 2;
} else {
  const result = await applyRetention(home, {perWorkspace: Number(perWorkspace), total: Number(total)});
  process.exitCode = result.failures.length > 0 ? 1 : 0;
}
