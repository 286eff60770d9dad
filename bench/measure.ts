// Timing helpers for the benchmarks: wall-clock runs of real processes, medians and spreads over repeats.
import {spawnSync} from 'node:child_process';

export interface Command {
  label: string;
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Runs before each timed run, untimed (for example `stratos clean` before a cold build). */
  before?: () => void;
}

export interface Timing {
  label: string;
  samplesMs: number[];
  medianMs: number;
  minMs: number;
  maxMs: number;
}

/** Runs a command once and returns its wall-clock time; throws with its output when it fails. */
export function timeOnce(command: Command): number {
  command.before?.();
  const started = performance.now();
  const result = spawnSync(command.command, command.args, {
    cwd: command.cwd,
    env: command.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(
      `${command.label} failed (exit ${result.status}): ${command.command} ${command.args.join(' ')}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return elapsed;
}

/**
 * Times several commands side by side: after `warmup` untimed rounds, each round runs every command once in turn,
 * so that a noisy neighbour slows all of them alike rather than one.
 */
export function timeSideBySide(commands: Command[], rounds: number, warmup = 2): Timing[] {
  for (let i = 0; i < warmup; i++) for (const command of commands) timeOnce(command);
  const samples = commands.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    commands.forEach((command, index) => {
      samples[index]!.push(timeOnce(command));
    });
  }
  return commands.map((command, index) => summarize(command.label, samples[index]!));
}

export function summarize(label: string, samplesMs: number[]): Timing {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const medianMs = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return {label, samplesMs, medianMs, minMs: sorted[0]!, maxMs: sorted.at(-1)!};
}

export function formatMs(ms: number): string {
  return `${ms.toFixed(0)} ms`;
}

export function formatTiming(timing: Timing): string {
  return `${timing.label}: median ${formatMs(timing.medianMs)} (min ${formatMs(timing.minMs)}, max ${formatMs(timing.maxMs)}, n=${timing.samplesMs.length})`;
}
