// In-process OTLP trace receiver for tests: OTLP/HTTP (JSON and protobuf) on one port and
// OTLP/gRPC on another, both bound to 127.0.0.1. Every protocol is decoded with the schema in
// ./schema.ts and normalised into identical ReceivedSpan values.
import {once} from 'node:events';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import zlib from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import {
  type DecodedAnyValue,
  type DecodedKeyValue,
  type DecodedRequest,
  decodeJsonRequest,
  decodeProtobufRequest,
  encodeEmptyResponse,
  traceServiceDefinition,
} from './schema.ts';

export type OtlpProtocol = 'http/json' | 'http/protobuf' | 'grpc';

export type ReceivedSpan = {
  protocol: OtlpProtocol;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  status: {code: number; message?: string};
  events: {name: string; attributes: Record<string, unknown>}[];
  resource: Record<string, unknown>;
  scope: {name: string; version?: string};
};

export type ReceivedRequest = {protocol: OtlpProtocol; headers: Record<string, string>};

export type OtlpReceiver = {
  /** http://127.0.0.1:<port>; POST /v1/traces accepts application/json and application/x-protobuf. */
  httpUrl: string;
  /** http://127.0.0.1:<port> serving opentelemetry.proto.collector.trace.v1.TraceService/Export. */
  grpcUrl: string;
  spans(): ReceivedSpan[];
  requests(): ReceivedRequest[];
  waitForSpans(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
};

export type OtlpReceiverOptions = {
  /** Fail every request: HTTP with this status, gRPC with UNAVAILABLE. Requests are still recorded. */
  failWith?: number | undefined;
  /** Called for every span as it is received (used by serve.ts). */
  onSpan?: ((span: ReceivedSpan) => void) | undefined;
};

export const TRACES_PATH = '/v1/traces';
const MAX_BODY_BYTES = 32 * 1024 * 1024;

function hex(bytes: Uint8Array | undefined): string {
  return bytes ? Buffer.from(bytes).toString('hex') : '';
}

/** Flattens an OTLP AnyValue into plain JSON-compatible data (bytes become base64 strings). */
export function flattenAnyValue(value: DecodedAnyValue | undefined): unknown {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) {
    const n = Number(value.intValue);
    return Number.isSafeInteger(n) ? n : value.intValue;
  }
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(flattenAnyValue);
  if (value.kvlistValue !== undefined) return flattenAttributes(value.kvlistValue.values);
  if (value.bytesValue !== undefined) return Buffer.from(value.bytesValue).toString('base64');
  return null;
}

export function flattenAttributes(list: DecodedKeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) out[kv.key ?? ''] = flattenAnyValue(kv.value);
  return out;
}

/** Normalises a decoded ExportTraceServiceRequest into ReceivedSpans. */
export function normaliseRequest(request: DecodedRequest, protocol: OtlpProtocol): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = flattenAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      const scope: ReceivedSpan['scope'] = {name: scopeSpans.scope?.name ?? ''};
      if (scopeSpans.scope?.version) scope.version = scopeSpans.scope.version;
      for (const span of scopeSpans.spans ?? []) {
        const parent = hex(span.parentSpanId);
        const status: ReceivedSpan['status'] = {code: span.status?.code ?? 0};
        if (span.status?.message) status.message = span.status.message;
        spans.push({
          protocol,
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: parent === '' ? undefined : parent,
          name: span.name ?? '',
          kind: span.kind ?? 0,
          startTimeUnixNano: span.startTimeUnixNano ?? '0',
          endTimeUnixNano: span.endTimeUnixNano ?? '0',
          attributes: flattenAttributes(span.attributes),
          status,
          events: (span.events ?? []).map((event) => ({
            name: event.name ?? '',
            attributes: flattenAttributes(event.attributes),
          })),
          resource: structuredClone(resource),
          scope: {...scope},
        });
      }
    }
  }
  return spans;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function flattenMetadata(metadata: grpc.Metadata): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.getMap())) {
    out[key.toLowerCase()] = Buffer.isBuffer(value) ? value.toString('base64') : String(value);
  }
  return out;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  if (encoding === 'identity') return body;
  throw new Error(`unsupported content-encoding ${encoding}`);
}

function send(res: http.ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, {'content-type': contentType, 'content-length': Buffer.byteLength(body)});
  res.end(body);
}

export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const {failWith, onSpan} = options;

  function accept(spans: ReceivedSpan[]): void {
    for (const span of spans) {
      received.push(span);
      onSpan?.(span);
    }
    for (const wake of waiters) wake();
  }

  const httpServer = http.createServer((req, res) => {
    void handleHttp(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain', String(error));
      else res.destroy();
    });
  });

  async function handleHttp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== TRACES_PATH) {
      req.resume();
      send(res, 404, 'text/plain', `not found: ${url.pathname}`);
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      res.setHeader('allow', 'POST');
      send(res, 405, 'text/plain', 'method not allowed');
      return;
    }
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    const protocol: OtlpProtocol | undefined =
      contentType === 'application/json'
        ? 'http/json'
        : contentType === 'application/x-protobuf'
          ? 'http/protobuf'
          : undefined;
    if (!protocol) {
      req.resume();
      send(res, 415, 'text/plain', `unsupported content-type ${contentType || '(none)'}`);
      return;
    }
    requests.push({protocol, headers: flattenHeaders(req.headers)});
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (error) {
      send(res, 400, 'text/plain', String(error));
      return;
    }
    if (failWith !== undefined) {
      send(res, failWith, 'text/plain', `otlp test receiver configured to fail with ${failWith}`);
      return;
    }
    let decoded: DecodedRequest;
    try {
      decoded =
        protocol === 'http/json' ? decodeJsonRequest(body.toString('utf8')) : decodeProtobufRequest(body);
    } catch (error) {
      send(res, 400, 'text/plain', `cannot decode ${protocol} request: ${String(error)}`);
      return;
    }
    accept(normaliseRequest(decoded, protocol));
    if (protocol === 'http/json') send(res, 200, 'application/json', '{}');
    else send(res, 200, 'application/x-protobuf', encodeEmptyResponse());
  }

  const grpcServer = new grpc.Server();
  grpcServer.addService(traceServiceDefinition(), {
    Export: (call: grpc.ServerUnaryCall<Buffer, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      requests.push({protocol: 'grpc', headers: flattenMetadata(call.metadata)});
      if (failWith !== undefined) {
        callback({
          code: grpc.status.UNAVAILABLE,
          details: `otlp test receiver configured to fail (failWith ${failWith})`,
        });
        return;
      }
      let spans: ReceivedSpan[];
      try {
        spans = normaliseRequest(decodeProtobufRequest(call.request), 'grpc');
      } catch (error) {
        callback({code: grpc.status.INVALID_ARGUMENT, details: `cannot decode request: ${String(error)}`});
        return;
      }
      accept(spans);
      callback(null, {});
    },
  });

  httpServer.listen(0, '127.0.0.1');
  try {
    await once(httpServer, 'listening');
  } catch (error) {
    grpcServer.forceShutdown();
    throw error;
  }
  let grpcPort: number;
  try {
    grpcPort = await new Promise<number>((resolve, reject) => {
      grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      );
    });
  } catch (error) {
    httpServer.close();
    grpcServer.forceShutdown();
    throw error;
  }
  const httpPort = (httpServer.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= (async () => {
      for (const wake of waiters) wake();
      const httpClosed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
      const grpcClosed = new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          grpcServer.forceShutdown();
          resolve();
        }, 1000);
        grpcServer.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await Promise.all([httpClosed, grpcClosed]);
    })();
    return closing;
  }

  function waitForSpans(count: number, timeoutMs = 5000): Promise<ReceivedSpan[]> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        if (received.length >= count) {
          finish();
          resolve([...received]);
          return true;
        }
        if (closing) {
          finish();
          reject(new Error(`receiver closed with ${received.length}/${count} spans`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(`timed out after ${timeoutMs}ms waiting for ${count} spans, got ${received.length}`),
        );
      }, timeoutMs);
      const wake = (): void => {
        check();
      };
      const finish = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      if (!check()) waiters.add(wake);
    });
  }

  return {
    httpUrl: `http://127.0.0.1:${httpPort}`,
    grpcUrl: `http://127.0.0.1:${grpcPort}`,
    spans: () => [...received],
    requests: () => requests.map((r) => ({protocol: r.protocol, headers: {...r.headers}})),
    waitForSpans,
    close,
  };
}
