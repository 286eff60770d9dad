/**
 * Starts a stdio MCP server in a process group of its own and ends that whole group when the server ends or
 * Stratos closes the connection, so background processes the server started never outlive the run. Run as
 * `node stdio-launcher.js <command> [args...]` by the stdio transport (POSIX only): the server inherits this
 * process's stdin, stdout and stderr (the transport's pipes), so messages pass without copying.
 *
 * - SIGINT is ignored: Ctrl+C reaches Stratos, which cancels and then closes its connections in order.
 * - SIGTERM (the transport's close) ends the server's group: SIGTERM, then SIGKILL after a grace period.
 * - When the server exits on its own (stdin closed), what is left of its group is ended, and the launcher exits
 *   with the server's status.
 * - When Stratos itself is gone (killed, so this process was re-parented), the group is ended too.
 */
import {spawn} from 'node:child_process';

/** How long the server's group may take to exit after SIGTERM before it gets SIGKILL. */
const graceMs = 1_500;
/** How long the rest of the group gets after the server itself has exited. */
const leftoverMs = 150;

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write('stdio-launcher: no server command was given.\n');
  process.exit(2);
}

const server = spawn(command, args, {stdio: 'inherit', detached: true});
let exited = false;
/** Set once the launcher is ending the group on request (SIGTERM or a lost parent). */
let ending = false;

function signalGroup(signal: NodeJS.Signals): void {
  if (server.pid === undefined) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Ends the server's group: SIGTERM to all of it; once the server itself has exited (at most the grace period),
 * a short pause for the rest of the group, then SIGKILL to whatever is left. Members that exited may linger as
 * zombies of another parent, so the group cannot be polled for being empty.
 */
function endGroup(then: () => void): void {
  signalGroup('SIGTERM');
  const finish = () => {
    setTimeout(() => {
      signalGroup('SIGKILL');
      then();
    }, leftoverMs);
  };
  if (exited) {
    finish();
    return;
  }
  const timer = setTimeout(finish, graceMs);
  server.once('exit', () => {
    clearTimeout(timer);
    finish();
  });
}

process.on('SIGINT', () => {});
// Stratos gone without closing (SIGKILL): this process is re-parented, and the server's group is ended as well.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid === parent || ending) return;
  ending = true;
  endGroup(() => process.exit(129));
}, 1_000).unref();
process.on('SIGTERM', () => {
  if (ending) return;
  ending = true;
  endGroup(() => process.exit(143));
});
server.on('error', (error) => {
  process.stderr.write(
    `stdio-launcher: the server command '${command}' could not be started: ${error.message}\n`,
  );
  process.exit(127);
});
server.on('exit', (code, signal) => {
  if (exited) return;
  exited = true;
  if (!ending) endGroup(() => process.exit(code ?? (signal === null ? 1 : 128)));
});
