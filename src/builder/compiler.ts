/** Runs the TypeScript compiler Stratos owns (flags and version in toolchain.ts) and returns its diagnostics. */
import {execFile} from 'node:child_process';
import {isAbsolute, join, resolve} from 'node:path';
import type {Diagnostic} from '../errors/index.ts';
import {StratosError} from '../errors/index.ts';
import {installedPackageDirectory} from '../internal/package-info.ts';
import {compilerFlags} from './toolchain.ts';

export {compilerFlags, compilerVersion} from './toolchain.ts';

/** The native compiler binary shipped in the platform package, so no extra Node start-up is paid per build. */
function compilerCommand(): {command: string; prefix: string[]} {
  try {
    const exe = join(
      installedPackageDirectory(`@typescript/typescript-${process.platform}-${process.arch}`),
      'lib',
      process.platform === 'win32' ? 'tsc.exe' : 'tsc',
    );
    return {command: exe, prefix: []};
  } catch {
    return {
      command: process.execPath,
      prefix: [join(installedPackageDirectory('typescript'), 'bin', 'tsc')],
    };
  }
}

export interface CompileOptions {
  /** Compilation root: the discovery root, mirrored below `outDir`. */
  rootDir: string;
  outDir: string;
  files: readonly string[];
}

export interface CompileResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** Every file the compiler read (`--listFiles`), absolute: the build's input files come from it. */
  files: string[];
  /** Every file the compiler wrote (`--listEmittedFiles`), absolute: the output ledger records them. */
  emitted: string[];
}

export async function compileTypeScript(options: CompileOptions): Promise<CompileResult> {
  const {command, prefix} = compilerCommand();
  const args = [
    ...prefix,
    ...compilerFlags,
    '--listFiles',
    '--listEmittedFiles',
    '--rootDir',
    options.rootDir,
    '--outDir',
    options.outDir,
    ...options.files,
  ];
  return new Promise((resolvePromise, reject) => {
    execFile(command, args, {cwd: options.rootDir, maxBuffer: 64 * 1024 * 1024}, (error, stdout, stderr) => {
      const lines = stdout.split(/\r?\n/);
      const files = lines.filter((line) => isAbsolute(line) && !diagnosticLine.test(line));
      const emitted = lines.flatMap((line) => emittedLine.exec(line)?.slice(1) ?? []);
      const diagnostics = parseCompilerOutput(stdout, options.rootDir);
      if (error === null) return resolvePromise({ok: true, diagnostics, files, emitted});
      if (diagnostics.length > 0) return resolvePromise({ok: false, diagnostics, files, emitted});
      reject(
        new StratosError(
          'STRATOS_BUILD_COMPILER_FAILED',
          `The TypeScript compiler could not be run (${command}): ${stderr.trim() || error.message}`,
          {cause: error},
        ),
      );
    });
  });
}

const diagnosticLine = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
const globalLine = /^(error|warning) (TS\d+): (.*)$/;
const emittedLine = /^TSFILE: (.+)$/;

/** Parses `--pretty false` output: `file(line,col): error TS1234: message` plus indented continuation lines. */
export function parseCompilerOutput(output: string, cwd: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    const located = diagnosticLine.exec(line);
    if (located !== null) {
      const [, file, row, column, severity, tsCode, message] = located;
      diagnostics.push({
        code: 'STRATOS_BUILD_TYPE_ERROR',
        severity: severity === 'warning' ? 'warning' : 'error',
        message: `${tsCode}: ${message}`,
        location: {file: resolve(cwd, file!), line: Number(row), column: Number(column)},
      });
      continue;
    }
    const global = globalLine.exec(line);
    if (global !== null) {
      diagnostics.push({
        code: 'STRATOS_BUILD_TYPE_ERROR',
        severity: 'error',
        message: `${global[2]}: ${global[3]}`,
      });
      continue;
    }
    // `--listFiles` lines are unindented absolute paths, `--listEmittedFiles` lines start with `TSFILE: `;
    // continuation lines of a diagnostic are indented.
    if (isAbsolute(line) || emittedLine.test(line)) continue;
    const last = diagnostics.at(-1);
    if (last !== undefined && line.trim() !== '') last.message += `\n${line.trimEnd()}`;
  }
  return diagnostics;
}
