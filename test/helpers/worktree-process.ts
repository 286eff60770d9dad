// A second process for worktree tests, started with `node` (type stripping) and killed by the test:
//   acquire <stratosHome> <directory> <name> <runId> [runDirectory]
//                                                     acquires a worktree like a running agent (of a run that can
//                                                     be resumed when runDirectory is given), prints the lease
//   lock <lockFile>                                    holds a worktree lock the way Stratos takes it
// Each prints one JSON line when ready and then waits until it is killed.
import {DatabaseSync} from 'node:sqlite';
import {acquireWorktree} from '../../src/worktrees/acquire-worktree.ts';

const [mode, ...args] = process.argv.slice(2);
if (mode === 'acquire') {
  const [stratosHome, directory, name, runId, runDirectory] = args as [
    string,
    string,
    string,
    string,
    string?,
  ];
  const lease = await acquireWorktree({
    stratosHome,
    directory,
    agent: 'other',
    name,
    cleanup: true,
    runId,
    runDirectory,
  });
  process.stdout.write(`${JSON.stringify({ready: true, pid: process.pid, path: lease.path})}\n`);
} else if (mode === 'lock') {
  const database = new DatabaseSync(args[0]!, {timeout: 0});
  database.exec('BEGIN EXCLUSIVE');
  process.stdout.write(`${JSON.stringify({ready: true, pid: process.pid})}\n`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
setInterval(() => {}, 60_000);
