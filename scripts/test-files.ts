// The test files `npm test` runs: every test/**/*.test.ts except the opt-in live suite (test/live/, run by
// `npm run test:live` against real providers), sorted.
import {globSync} from 'node:fs';

export function listTestFiles(cwd = process.cwd()): string[] {
  return globSync('test/**/*.test.ts', {cwd})
    .filter((file) => !file.startsWith('test/live/'))
    .sort();
}
