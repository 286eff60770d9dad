// A BROWSER command for tests: `node browser.ts --user=alice --action=approve <url>`. It opens the URL in a real
// headless Chromium (Debian's /usr/bin/chromium through playwright-core, fresh user-data directory), signs in on
// the test authorization server's login page, approves or denies the consent screen, waits for the loopback
// callback page and exits 0. `--action=ignore` only loads the page (the sign-in is then left to time out).
import {appendFile, mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {chromium} from 'playwright-core';
import {chromiumFlags} from '../../helpers/chromium.ts';
import {testPassword} from './authorization-server.ts';

// The callback is on whichever loopback host the redirect names (`URL.hostname` keeps IPv6 brackets).
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);
const args = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const url = args.find((arg) => !arg.startsWith('--'));
const user = option('user', 'alice');
const action = option('action', 'approve');
const log = option('log', '');

async function note(line: string): Promise<void> {
  if (log !== '') await appendFile(log, `${JSON.stringify({pid: process.pid, line})}\n`);
}

async function main(): Promise<void> {
  if (url === undefined)
    throw new Error('usage: browser.ts [--user=name] [--action=approve|deny|ignore] <url>');
  const profile = await mkdtemp(join(tmpdir(), 'stratos-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.STRATOS_TEST_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: chromiumFlags,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url, {waitUntil: 'domcontentloaded'});
    await note(`opened ${new URL(url).pathname}`);
    if (action === 'ignore') return;
    await page.fill('#username', user);
    await page.fill('#password', testPassword);
    await page.click('#sign-in');
    await page.waitForSelector(action === 'deny' ? '#deny' : '#approve', {timeout: 20_000});
    await note('consent shown');
    await page.click(action === 'deny' ? '#deny' : '#approve');
    await page.waitForURL(
      (target) => loopbackHosts.has(target.hostname) && target.pathname.includes('/callback'),
      {
        timeout: 20_000,
      },
    );
    const heading = await page.textContent('h1');
    await note(`callback page: ${heading}`);
  } finally {
    await context.close();
    await rm(profile, {recursive: true, force: true});
  }
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    await note(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.stderr.write(`browser.ts: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
