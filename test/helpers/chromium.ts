// A real headless Chromium for page tests: Debian's /usr/bin/chromium (or STRATOS_TEST_CHROMIUM) through
// playwright-core, with the flags of the sign-in tests and a new empty user-data directory removed on close.
import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {type BrowserContext, chromium} from 'playwright-core';

export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(viewport = {width: 1400, height: 900}): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'stratos-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.STRATOS_TEST_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: chromiumFlags,
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, {recursive: true, force: true});
    },
  };
}
