// `npm test`: checks the Node version, lints and formats (check only), checks the layering rule, then runs every
// test with Node's own runner. Each step stops the run on failure.
import {spawnSync} from 'node:child_process';
import {ensureChromium} from './ensure-chromium.ts';

const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `npm test must run on Node.js 24 (the repository's own 'node' devDependency); this is ${process.version}.`,
  );
  process.exit(1);
}
console.log(`node ${process.version}`);
ensureChromium();

const steps: [string, string[]][] = [
  ['biome', ['check', '.']],
  [process.execPath, ['scripts/check-layers.ts']],
  [
    process.execPath,
    [
      '--test',
      '--test-concurrency=2',
      '--test-timeout=300000',
      ...(process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['test/**/*.test.ts']),
    ],
  ],
];
for (const [command, args] of steps) {
  const result = spawnSync(command, args, {stdio: 'inherit'});
  if (result.status !== 0) process.exit(result.status ?? 1);
}
