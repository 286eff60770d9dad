/**
 * Trace export through the OpenTelemetry SDK for one top-level run (loaded with `import()` only when some
 * invocation of the run has a destination). One TracerProvider per run, whose id generator hands out the run's
 * trace id, so every span of the run (children included) shares one trace. A routing span processor sends each
 * ended span to the batch processors of the destinations its invocation exports to; because one span object
 * reaches every destination, span identities are the same everywhere.
 */
import {createRequire} from 'node:module';
import {type Context, ROOT_CONTEXT, type Span, SpanStatusCode, TraceFlags, trace} from '@opentelemetry/api';
import {type ExportResult, ExportResultCode} from '@opentelemetry/core';
import {OTLPTraceExporter as GrpcExporter} from '@opentelemetry/exporter-trace-otlp-grpc';
import {OTLPTraceExporter as HttpJsonExporter} from '@opentelemetry/exporter-trace-otlp-http';
import {OTLPTraceExporter as HttpProtobufExporter} from '@opentelemetry/exporter-trace-otlp-proto';
import {resourceFromAttributes} from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  RandomIdGenerator,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type {TelemetryAttributes} from '../invocation-telemetry.ts';
import type {OperationStatus} from '../model/conventions.ts';
import type {Destination} from './destinations.ts';
import {FileSpanExporter} from './file-span-exporter.ts';

/** Per-request timeout of every exporter; the HTTP exporters retry 429/502/503/504 within it. */
export const EXPORT_TIMEOUT_MS = 5_000;

export interface ExportedSpan {
  spanId: string;
  setAttributes(attributes: TelemetryAttributes): void;
  addEvent(name: string, attributes: TelemetryAttributes | undefined, timeMs: number): void;
  end(status: OperationStatus, message: string | undefined, endMs: number): void;
}

export interface StartSpanOptions {
  name: string;
  kind: number;
  /** Parent identities; absent for the run's root span. */
  parent?: {traceId: string; spanId: string};
  startMs: number;
  attributes: TelemetryAttributes;
  destinationKeys: readonly string[];
}

export interface TraceExport {
  addDestination(destination: Destination): void;
  startSpan(options: StartSpanOptions): ExportedSpan;
  /** Flushes and shuts every destination down within `timeoutMs`; never rejects. */
  shutdown(timeoutMs: number): Promise<void>;
}

export interface TraceExportOptions {
  traceId: string;
  resource: Record<string, string>;
  /** Called once per failing destination with a message that names it (never its headers). */
  onFailure(label: string, error: unknown): void;
}

export function createTraceExport(options: TraceExportOptions): TraceExport {
  const processors = new Map<string, SpanProcessor>();
  const routes = new Map<string, readonly string[]>();
  const failed = new Set<string>();
  const router: SpanProcessor = {
    onStart() {},
    onEnd(span: ReadableSpan) {
      const keys = routes.get(span.spanContext().spanId) ?? [];
      routes.delete(span.spanContext().spanId);
      for (const key of keys) processors.get(key)?.onEnd(span);
    },
    async forceFlush() {
      await Promise.allSettled([...processors.values()].map((p) => p.forceFlush()));
    },
    async shutdown() {
      await Promise.allSettled([...processors.values()].map((p) => p.shutdown()));
    },
  };
  const random = new RandomIdGenerator();
  const provider = new TracerProvider({
    resource: resourceFromAttributes(options.resource),
    idGenerator: {generateTraceId: () => options.traceId, generateSpanId: () => random.generateSpanId()},
    spanLimits: {attributeValueLengthLimit: 16_384, eventCountLimit: 256},
    spanProcessors: [router],
  });
  const tracer = provider.getTracer('@stratoscli/stratos');

  return {
    addDestination(destination) {
      if (processors.has(destination.key)) return;
      const exporter = reportingExporter(createExporter(destination), (error) => {
        if (failed.has(destination.key)) return;
        failed.add(destination.key);
        options.onFailure(destination.label, error);
      });
      processors.set(
        destination.key,
        new BatchSpanProcessor({
          exporter,
          maxQueueSize: 8_192,
          maxExportBatchSize: 512,
          scheduledDelayMillis: 1_000,
          exportTimeoutMillis: EXPORT_TIMEOUT_MS + 1_000,
        }),
      );
    },
    startSpan(start) {
      const parent: Context =
        start.parent === undefined
          ? ROOT_CONTEXT
          : trace.setSpanContext(ROOT_CONTEXT, {
              traceId: start.parent.traceId,
              spanId: start.parent.spanId,
              traceFlags: TraceFlags.SAMPLED,
            });
      const span = tracer.startSpan(
        start.name,
        {kind: start.kind, startTime: start.startMs, attributes: start.attributes},
        parent,
      );
      const spanId = span.spanContext().spanId;
      routes.set(spanId, start.destinationKeys);
      return exportedSpan(span, spanId);
    },
    async shutdown(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      });
      await Promise.race([provider.shutdown().catch(() => {}), deadline]);
      clearTimeout(timer);
    },
  };
}

function exportedSpan(span: Span, spanId: string): ExportedSpan {
  return {
    spanId,
    setAttributes: (attributes) => span.setAttributes(attributes),
    addEvent: (name, attributes, timeMs) => span.addEvent(name, attributes, timeMs),
    end(status, message, endMs) {
      if (status === 'error')
        span.setStatus({code: SpanStatusCode.ERROR, ...(message === undefined ? {} : {message})});
      else if (status === 'ok') span.setStatus({code: SpanStatusCode.OK});
      span.end(endMs);
    },
  };
}

function createExporter(destination: Destination): SpanExporter {
  if (destination.type === 'file') return new FileSpanExporter(destination.path);
  const common = {url: destination.endpoint, timeoutMillis: EXPORT_TIMEOUT_MS};
  switch (destination.protocol) {
    case 'http/json':
      return new HttpJsonExporter({...common, headers: destination.headers});
    case 'http/protobuf':
      return new HttpProtobufExporter({...common, headers: destination.headers});
    case 'grpc':
      return new GrpcExporter({...common, metadata: grpcMetadata(destination.headers)});
  }
}

/**
 * gRPC headers travel as Metadata of the exporter's own copy of @grpc/grpc-js (an instance of another copy would
 * not be recognised), so it is loaded from where the exporter resolves it.
 */
function grpcMetadata(headers: Record<string, string>): GrpcMetadata {
  const grpc = createRequire(import.meta.resolve('@opentelemetry/exporter-trace-otlp-grpc'))(
    '@grpc/grpc-js',
  ) as {
    Metadata: new () => GrpcMetadata;
  };
  const metadata = new grpc.Metadata();
  for (const [name, value] of Object.entries(headers)) metadata.set(name.toLowerCase(), value);
  return metadata;
}

type GrpcMetadata = NonNullable<ConstructorParameters<typeof GrpcExporter>[0]>['metadata'] & {
  set(key: string, value: string): void;
};

/** Passes every export through and reports failed results (the SDK's batch processor would swallow them). */
function reportingExporter(inner: SpanExporter, onFailure: (error: unknown) => void): SpanExporter {
  return {
    export(spans, resultCallback) {
      inner.export(spans, (result: ExportResult) => {
        if (result.code !== ExportResultCode.SUCCESS) onFailure(result.error ?? new Error('export failed'));
        resultCallback(result);
      });
    },
    shutdown: () => inner.shutdown(),
    ...(inner.forceFlush === undefined ? {} : {forceFlush: () => inner.forceFlush!()}),
  };
}
