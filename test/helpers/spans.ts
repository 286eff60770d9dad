// The spans of one run, as tests read them: from the OTLP receiver (which holds the spans of every run of a test
// file) or from a file exporter's OTLP/JSON lines, both as the receiver's ReceivedSpan values.
import {readFile} from 'node:fs/promises';
import {normaliseRequest, type OtlpReceiver, type ReceivedSpan} from '../servers/otlp/receiver.ts';
import {decodeJsonRequest} from '../servers/otlp/schema.ts';
import {pollUntil} from './wait-for.ts';

/** The spans of one run's trace: those whose resource names `executionId` as the root execution. */
export function selectRunSpans(spans: readonly ReceivedSpan[], executionId: string): ReceivedSpan[] {
  return spans.filter((span) => span.resource['stratos.root_execution.id'] === executionId);
}

/**
 * Waits until the receiver holds at least `count` spans of the run and returns them. Export is asynchronous, so
 * the spans may arrive after the command ended; after `timeoutMs` (default 15 s) it returns what arrived, and the
 * test's assertions say what is missing.
 */
export async function collectSpans(
  receiver: Pick<OtlpReceiver, 'spans'>,
  executionId: string,
  count: number,
  timeoutMs = 15_000,
): Promise<ReceivedSpan[]> {
  let spans: ReceivedSpan[] = [];
  await pollUntil(
    () => {
      spans = selectRunSpans(receiver.spans(), executionId);
      return spans.length >= count;
    },
    {timeoutMs},
  );
  return spans;
}

/** The spans of one run from a file exporter's OTLP/JSON lines (one export request a line). */
export async function readFileSpans(path: string, executionId: string): Promise<ReceivedSpan[]> {
  const text = await readFile(path, 'utf8');
  const spans = text
    .trim()
    .split('\n')
    .flatMap((line) => normaliseRequest(decodeJsonRequest(line), 'http/json'));
  return selectRunSpans(spans, executionId);
}
