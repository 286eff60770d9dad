// The browser sign-in tests drive Debian's Chromium through playwright-core. On a fresh machine of this kind it is
// not installed yet: as root with apt-get, install it (Debian's package, the machine's own registry); anywhere
// else, say what to install. The tests fail, not skip, without it: a sign-in test that cannot run has not passed.
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';

const executable = process.env.STRATOS_TEST_CHROMIUM ?? '/usr/bin/chromium';

export function ensureChromium(): void {
  if (existsSync(executable)) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], {stdio: 'ignore'}).status === 0;
  if (!isRoot || !hasApt) {
    console.error(
      `Chromium is missing at ${executable}; the browser sign-in tests need it. Install Debian's chromium package ` +
        `(apt-get install chromium) or set STRATOS_TEST_CHROMIUM to a Chromium binary.`,
    );
    return;
  }
  console.log('Installing Debian chromium for the browser sign-in tests...');
  const env = {...process.env, DEBIAN_FRONTEND: 'noninteractive'};
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const result = spawnSync('apt-get', args, {stdio: 'inherit', env});
    if (result.status !== 0) {
      console.error(
        `apt-get ${args.join(' ')} failed (exit ${result.status}); the browser sign-in tests will fail.`,
      );
      return;
    }
  }
}
