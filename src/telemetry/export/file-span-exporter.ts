/**
 * The `file` trace destination: one OTLP/JSON `ExportTraceServiceRequest` per line (the format of the OpenTelemetry
 * Collector's file exporter), appended, so a file collects many runs and every line parses on its own.
 * Loaded only with the OpenTelemetry SDK.
 */
import {mkdir, open} from 'node:fs/promises';
import {dirname} from 'node:path';
import type {Attributes, AttributeValue, HrTime} from '@opentelemetry/api';
import {type ExportResult, ExportResultCode} from '@opentelemetry/core';
import type {ReadableSpan, SpanExporter} from '@opentelemetry/sdk-trace';
import {StratosError} from '../../errors/index.ts';
import {AppendWriter} from '../artifacts/jsonl-writer.ts';

export class FileSpanExporter implements SpanExporter {
  #path: string;
  #writer: AppendWriter | undefined;
  #ready: Promise<void> | undefined;
  #error: unknown;

  constructor(path: string) {
    this.#path = path;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    void this.#write(`${JSON.stringify(encodeSpans(spans))}\n`).then(
      () => resultCallback({code: ExportResultCode.SUCCESS}),
      (error: unknown) =>
        resultCallback({
          code: ExportResultCode.FAILED,
          error: error instanceof Error ? error : new Error(String(error)),
        }),
    );
  }

  async forceFlush(): Promise<void> {
    await this.#writer?.flush();
  }

  async shutdown(): Promise<void> {
    await this.#writer?.close();
  }

  async #write(line: string): Promise<void> {
    this.#ready ??= mkdir(dirname(this.#path), {recursive: true})
      .then(() => assertTraceFile(this.#path))
      .then(() => {
        this.#writer = new AppendWriter(this.#path, (error) => {
          this.#error = error;
        });
      });
    await this.#ready;
    this.#writer!.append(line);
    await this.#writer!.flush();
    if (this.#error !== undefined) throw this.#error;
  }
}

/**
 * Appends go only to a new file or one that already holds OTLP/JSON lines: a path that names some unrelated file
 * (a typo, `~/.bashrc`) is refused, and the run reports it as an export warning.
 */
async function assertTraceFile(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const head = Buffer.alloc(32);
    const {bytesRead} = await handle.read(head, 0, head.length, 0);
    const text = head.subarray(0, bytesRead).toString('utf8');
    if (bytesRead > 0 && !text.startsWith('{"resourceSpans"')) {
      throw new StratosError(
        'STRATOS_TELEMETRY_DESTINATION_INVALID',
        `The trace file ${path} already exists and does not hold OTLP/JSON trace lines, so Stratos does not append to it. Point the file exporter's path at a new file.`,
      );
    }
  } finally {
    await handle.close();
  }
}

/** OTLP/JSON encoding: hex ids, nanosecond times as decimal strings, `{key, value: {stringValue...}}` pairs. */
export function encodeSpans(spans: readonly ReadableSpan[]): unknown {
  const byResource = new Map<unknown, ReadableSpan[]>();
  for (const span of spans) {
    const list = byResource.get(span.resource) ?? [];
    list.push(span);
    byResource.set(span.resource, list);
  }
  return {
    resourceSpans: [...byResource.values()].map((list) => {
      const byScope = new Map<string, ReadableSpan[]>();
      for (const span of list) {
        const key = `${span.instrumentationScope.name}@${span.instrumentationScope.version ?? ''}`;
        byScope.set(key, [...(byScope.get(key) ?? []), span]);
      }
      return {
        resource: {attributes: encodeAttributes(list[0]!.resource.attributes as Attributes)},
        scopeSpans: [...byScope.values()].map((scoped) => ({
          scope: {
            name: scoped[0]!.instrumentationScope.name,
            ...(scoped[0]!.instrumentationScope.version === undefined
              ? {}
              : {version: scoped[0]!.instrumentationScope.version}),
          },
          spans: scoped.map(encodeSpan),
        })),
      };
    }),
  };
}

function encodeSpan(span: ReadableSpan): unknown {
  const context = span.spanContext();
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    ...(span.parentSpanContext === undefined ? {} : {parentSpanId: span.parentSpanContext.spanId}),
    name: span.name,
    kind: span.kind + 1,
    startTimeUnixNano: nanos(span.startTime),
    endTimeUnixNano: nanos(span.endTime),
    attributes: encodeAttributes(span.attributes),
    events: span.events.map((event) => ({
      timeUnixNano: nanos(event.time),
      name: event.name,
      attributes: encodeAttributes(event.attributes ?? {}),
    })),
    status: {
      code: span.status.code,
      ...(span.status.message === undefined ? {} : {message: span.status.message}),
    },
  };
}

function nanos([seconds, nanoseconds]: HrTime): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds)).toString();
}

function encodeAttributes(attributes: Attributes): {key: string; value: unknown}[] {
  return Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({key, value: encodeValue(value as AttributeValue)}));
}

function encodeValue(value: AttributeValue | null | undefined): unknown {
  if (Array.isArray(value)) return {arrayValue: {values: value.map((item) => encodeValue(item))}};
  if (typeof value === 'string') return {stringValue: value};
  if (typeof value === 'boolean') return {boolValue: value};
  if (typeof value === 'number')
    return Number.isInteger(value) ? {intValue: String(value)} : {doubleValue: value};
  return {};
}
