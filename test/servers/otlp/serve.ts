// CLI: node test/servers/otlp/serve.ts [--fail-with <status>]
// Prints {"httpUrl": ..., "grpcUrl": ...} as the first stdout line, then one JSON line per
// received span. Stops (closing both listeners) on SIGINT or SIGTERM.
import {parseArgs} from 'node:util';
import {startOtlpReceiver} from './receiver.ts';

const {values} = parseArgs({options: {'fail-with': {type: 'string'}}});
const failWithText = values['fail-with'];
const failWith = failWithText === undefined ? undefined : Number(failWithText);
if (failWith !== undefined && !(Number.isInteger(failWith) && failWith >= 100 && failWith <= 599)) {
  console.error(`--fail-with must be an HTTP status code, got ${failWithText}`);
  process.exit(2);
}

const receiver = await startOtlpReceiver({
  failWith,
  onSpan: (span) => process.stdout.write(`${JSON.stringify(span)}\n`),
});
process.stdout.write(`${JSON.stringify({httpUrl: receiver.httpUrl, grpcUrl: receiver.grpcUrl})}\n`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await receiver.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
