import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import path from 'node:path';
import {createInterface} from 'node:readline';
import {after, before, describe, test} from 'node:test';
import {fileURLToPath} from 'node:url';
import * as grpc from '@grpc/grpc-js';
import {type HrTime, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace} from '@opentelemetry/api';
import {type ExportResult, ExportResultCode} from '@opentelemetry/core';
import {OTLPTraceExporter as GrpcTraceExporter} from '@opentelemetry/exporter-trace-otlp-grpc';
import {OTLPTraceExporter as HttpJsonTraceExporter} from '@opentelemetry/exporter-trace-otlp-http';
import {OTLPTraceExporter as HttpProtoTraceExporter} from '@opentelemetry/exporter-trace-otlp-proto';
import {resourceFromAttributes} from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import {
  type OtlpProtocol,
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from '../../servers/otlp/index.ts';

const EXPORT_TIMEOUT_MS = 3000;
const PROTOCOLS: OtlpProtocol[] = ['http/json', 'http/protobuf', 'grpc'];

function exporterFor(protocol: OtlpProtocol, receiver: OtlpReceiver): SpanExporter {
  const options = {timeoutMillis: EXPORT_TIMEOUT_MS};
  switch (protocol) {
    case 'http/json':
      return new HttpJsonTraceExporter({
        ...options,
        url: `${receiver.httpUrl}/v1/traces`,
        headers: {'x-stratos-test': 'json'},
      });
    case 'http/protobuf':
      return new HttpProtoTraceExporter({
        ...options,
        url: `${receiver.httpUrl}/v1/traces`,
        headers: {'x-stratos-test': 'protobuf'},
      });
    case 'grpc': {
      const metadata = new grpc.Metadata();
      metadata.set('x-stratos-test', 'grpc');
      return new GrpcTraceExporter({...options, url: receiver.grpcUrl, metadata});
    }
  }
}

function hrTimeToNanoString([seconds, nanos]: HrTime): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
}

const resourceAttributes = {'service.name': 'stratos-otlp-receiver-test', 'stratos.run.id': 'run-42'};

/** Builds parent + two children (one failing, with an event) on the given provider. */
function recordSpanTree(provider: TracerProvider): void {
  const tracer = provider.getTracer('stratos-test-scope', '1.2.3');
  const parent = tracer.startSpan('workflow.run', {
    kind: SpanKind.SERVER,
    attributes: {
      'stratos.workflow': 'deploy',
      'stratos.attempt': 3,
      'stratos.ratio': 0.25,
      'stratos.dry_run': false,
      'stratos.tags': ['a', 'b'],
      'stratos.sizes': [1, 2, 3],
      'stratos.flags': [true, false],
    },
  });
  const parentContext = trace.setSpan(ROOT_CONTEXT, parent);
  const ok = tracer.startSpan(
    'step.fetch',
    {attributes: {'stratos.step': 'fetch', 'stratos.bytes': 1024}},
    parentContext,
  );
  ok.setStatus({code: SpanStatusCode.OK});
  ok.end();
  const failing = tracer.startSpan('step.build', {kind: SpanKind.CLIENT}, parentContext);
  failing.setAttribute('stratos.step', 'build');
  failing.addEvent('retry', {'retry.attempt': 2, 'retry.reason': 'timeout', 'retry.fatal': true});
  failing.setStatus({code: SpanStatusCode.ERROR, message: 'build failed: exit 1'});
  failing.end();
  parent.end();
}

function expectedFrom(span: ReadableSpan): Omit<ReceivedSpan, 'protocol'> {
  const context = span.spanContext();
  const status: ReceivedSpan['status'] = {code: span.status.code};
  if (span.status.message) status.message = span.status.message;
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: span.kind + 1, // api SpanKind (INTERNAL = 0) -> OTLP SpanKind (INTERNAL = 1)
    startTimeUnixNano: hrTimeToNanoString(span.startTime),
    endTimeUnixNano: hrTimeToNanoString(span.endTime),
    attributes: {...span.attributes},
    status,
    events: span.events.map((event) => ({name: event.name, attributes: {...event.attributes}})),
    resource: {...span.resource.attributes},
    scope:
      span.instrumentationScope.version === undefined
        ? {name: span.instrumentationScope.name}
        : {name: span.instrumentationScope.name, version: span.instrumentationScope.version},
  };
}

function withoutProtocol({protocol: _protocol, ...rest}: ReceivedSpan): Omit<ReceivedSpan, 'protocol'> {
  return rest;
}

function exportOnce(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

describe('OTLP test receiver', () => {
  let receiver: OtlpReceiver;
  let sdkSpans: ReadableSpan[];

  before(async () => {
    receiver = await startOtlpReceiver();
    const memory = new InMemorySpanExporter();
    // One provider exporting the same spans through all three protocols at once.
    const provider = new TracerProvider({
      resource: resourceFromAttributes(resourceAttributes),
      spanProcessors: [
        new SimpleSpanProcessor({exporter: memory}),
        ...PROTOCOLS.map((protocol) => new BatchSpanProcessor({exporter: exporterFor(protocol, receiver)})),
      ],
    });
    recordSpanTree(provider);
    await provider.forceFlush();
    sdkSpans = memory.getFinishedSpans(); // InMemorySpanExporter forgets its spans on shutdown
    await provider.shutdown();
  });

  after(async () => {
    await receiver?.close();
  });

  test('binds to 127.0.0.1 on two ports', () => {
    assert.match(receiver.httpUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(receiver.grpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(receiver.httpUrl, receiver.grpcUrl);
  });

  test('receives the span tree over every protocol with the SDK’s exact ids and values', async () => {
    assert.equal(sdkSpans.length, 3);
    const received = await receiver.waitForSpans(9, 5000);
    assert.equal(received.length, 9);

    const expected = sdkSpans.map(expectedFrom).sort((a, b) => a.name.localeCompare(b.name));
    const parent = expected.find((span) => span.name === 'workflow.run');
    assert.ok(parent);
    assert.equal(parent.parentSpanId, undefined);
    for (const child of expected.filter((span) => span !== parent)) {
      assert.equal(child.traceId, parent.traceId);
      assert.equal(child.parentSpanId, parent.spanId);
    }

    for (const protocol of PROTOCOLS) {
      const spans = received
        .filter((span) => span.protocol === protocol)
        .sort((a, b) => a.name.localeCompare(b.name));
      assert.equal(spans.length, 3, `${protocol} span count`);
      assert.deepStrictEqual(spans.map(withoutProtocol), expected, `${protocol} decoded spans`);
    }

    const build = received.find((span) => span.name === 'step.build' && span.protocol === 'grpc');
    assert.deepStrictEqual(build?.status, {code: 2, message: 'build failed: exit 1'});
    assert.equal(build?.kind, 3);
    assert.deepStrictEqual(build?.events, [
      {name: 'retry', attributes: {'retry.attempt': 2, 'retry.reason': 'timeout', 'retry.fatal': true}},
    ]);
    const run = received.find((span) => span.name === 'workflow.run' && span.protocol === 'http/json');
    assert.deepStrictEqual(run?.attributes, {
      'stratos.workflow': 'deploy',
      'stratos.attempt': 3,
      'stratos.ratio': 0.25,
      'stratos.dry_run': false,
      'stratos.tags': ['a', 'b'],
      'stratos.sizes': [1, 2, 3],
      'stratos.flags': [true, false],
    });
    assert.equal(run?.resource['service.name'], 'stratos-otlp-receiver-test');
    assert.deepStrictEqual(run?.scope, {name: 'stratos-test-scope', version: '1.2.3'});
  });

  test('records each request with its protocol and headers', () => {
    const requests = receiver.requests();
    for (const protocol of PROTOCOLS) {
      const mine = requests.filter((request) => request.protocol === protocol);
      assert.ok(mine.length >= 1, `${protocol} requests`);
      const expectedHeader =
        protocol === 'http/json' ? 'json' : protocol === 'http/protobuf' ? 'protobuf' : 'grpc';
      for (const request of mine) assert.equal(request.headers['x-stratos-test'], expectedHeader);
    }
  });

  test('rejects unknown paths and content types', async () => {
    const notFound = await fetch(`${receiver.httpUrl}/v1/metrics`, {method: 'POST', body: '{}'});
    assert.equal(notFound.status, 404);
    await notFound.arrayBuffer();
    const unsupported = await fetch(`${receiver.httpUrl}/v1/traces`, {
      method: 'POST',
      headers: {'content-type': 'text/plain'},
      body: 'x',
    });
    assert.equal(unsupported.status, 415);
    await unsupported.arrayBuffer();
    const broken = await fetch(`${receiver.httpUrl}/v1/traces`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: '{"resourceSpans": 5}',
    });
    assert.equal(broken.status, 400);
    await broken.arrayBuffer();
  });
});

describe('OTLP test receiver with failWith', () => {
  let failing: OtlpReceiver;
  let healthy: OtlpReceiver;

  before(async () => {
    [failing, healthy] = await Promise.all([startOtlpReceiver({failWith: 500}), startOtlpReceiver()]);
  });

  after(async () => {
    await Promise.all([failing?.close(), healthy?.close()]);
  });

  test('returns an error to every exporter', async () => {
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({spanProcessors: [new SimpleSpanProcessor({exporter: memory})]});
    recordSpanTree(provider);
    const spans = memory.getFinishedSpans();
    await provider.shutdown();

    for (const protocol of PROTOCOLS) {
      const exporter = exporterFor(protocol, failing);
      try {
        const result = await exportOnce(exporter, spans);
        assert.equal(result.code, ExportResultCode.FAILED, `${protocol} result code`);
        assert.ok(result.error, `${protocol} error`);
        if (protocol === 'grpc') {
          assert.equal((result.error as Error & {code?: number}).code, grpc.status.UNAVAILABLE);
        } else {
          assert.equal((result.error as Error & {code?: number}).code, 500);
        }
      } finally {
        await exporter.shutdown();
      }
    }
    assert.deepStrictEqual(failing.spans(), []);
    assert.deepStrictEqual(
      [...new Set(failing.requests().map((request) => request.protocol))].sort(),
      [...PROTOCOLS].sort(),
    );
  });

  test('a failing destination does not stop another from receiving', async () => {
    const provider = new TracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor({exporter: exporterFor('grpc', failing)}),
        new SimpleSpanProcessor({exporter: exporterFor('http/json', failing)}),
        new SimpleSpanProcessor({exporter: exporterFor('http/protobuf', healthy)}),
      ],
    });
    recordSpanTree(provider);
    // TracerProvider.forceFlush waits for every processor, then rejects with an array holding one
    // error per failed processor; the healthy processor's exports are unaffected.
    await assert.rejects(provider.forceFlush(), (errors: unknown) => {
      assert.ok(Array.isArray(errors));
      assert.equal(errors.length, 2);
      return true;
    });
    await provider.shutdown();
    const spans = await healthy.waitForSpans(3, 5000);
    assert.deepStrictEqual(spans.map((span) => span.name).sort(), [
      'step.build',
      'step.fetch',
      'workflow.run',
    ]);
    assert.deepStrictEqual(failing.spans(), []);
  });
});

test('serve.ts prints its URLs and then one JSON line per span', async () => {
  const serve = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../servers/otlp/serve.ts');
  const child = spawn(process.execPath, [serve], {stdio: ['ignore', 'pipe', 'inherit']});
  const exited = once(child, 'exit');
  try {
    const lines = createInterface({input: child.stdout})[Symbol.asyncIterator]();
    const first = await lines.next();
    const urls = JSON.parse(String(first.value)) as {httpUrl: string; grpcUrl: string};
    assert.match(urls.httpUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(urls.grpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);

    const exporter = new GrpcTraceExporter({url: urls.grpcUrl, timeoutMillis: EXPORT_TIMEOUT_MS});
    const provider = new TracerProvider({spanProcessors: [new SimpleSpanProcessor({exporter})]});
    recordSpanTree(provider);
    await provider.shutdown();

    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const line = await lines.next();
      const span = JSON.parse(String(line.value)) as ReceivedSpan;
      assert.equal(span.protocol, 'grpc');
      names.push(span.name);
    }
    assert.deepStrictEqual(names.sort(), ['step.build', 'step.fetch', 'workflow.run']);
  } finally {
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    assert.equal(code, 0, `serve.ts exit (signal ${signal})`);
  }
});
