// OTLP trace schema for the test receiver, loaded with protobufjs from the official opentelemetry-proto v1 .proto
// files in ./protos (copied, with their Apache-2.0 headers, from the protos that
// @opentelemetry/otlp-grpc-exporter-base@0.36.1 publishes under build/protos; only the four the trace service
// needs). This is the single source of truth for HTTP/protobuf decoding, the OTLP/JSON mapping and the gRPC service.
//
// Those protos are an older revision of opentelemetry-proto: fields added later (for example span
// `flags`, InstrumentationScope `attributes` or the response's `partial_success`) are absent.
// protobufjs skips unknown fields when decoding binary messages and fromObject ignores unknown JSON
// keys, and the receiver reads none of those fields, so newer exporters decode unchanged; the
// success response is an empty ExportTraceServiceResponse, which is valid in every revision.
import path from 'node:path';
import type {MethodDefinition, ServiceDefinition} from '@grpc/grpc-js';
import protobuf from 'protobufjs';

const protoDir = path.join(import.meta.dirname, 'protos');
const serviceFile = 'opentelemetry/proto/collector/trace/v1/trace_service.proto';

const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(protoDir, target);
root.loadSync(serviceFile, {keepCase: false});
root.resolveAll();

export const ExportTraceServiceRequest = root.lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);
export const ExportTraceServiceResponse = root.lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse',
);
export const TraceService = root.lookupService('opentelemetry.proto.collector.trace.v1.TraceService');

/** Decoded request as a plain object: lowerCamelCase names, int64 as decimal strings, bytes as Buffers. */
export type DecodedRequest = {resourceSpans?: DecodedResourceSpans[]};
export type DecodedResourceSpans = {
  resource?: {attributes?: DecodedKeyValue[]};
  scopeSpans?: {scope?: {name?: string; version?: string}; spans?: DecodedSpan[]}[];
};
export type DecodedKeyValue = {key?: string; value?: DecodedAnyValue};
export type DecodedAnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: {values?: DecodedAnyValue[]};
  kvlistValue?: {values?: DecodedKeyValue[]};
  bytesValue?: Uint8Array;
};
export type DecodedSpan = {
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  parentSpanId?: Uint8Array;
  name?: string;
  kind?: number;
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes?: DecodedKeyValue[];
  events?: {name?: string; timeUnixNano?: string; attributes?: DecodedKeyValue[]}[];
  status?: {code?: number; message?: string};
};

const toObjectOptions: protobuf.IConversionOptions = {longs: String, enums: Number, bytes: Buffer};

function toPlain(message: protobuf.Message): DecodedRequest {
  return ExportTraceServiceRequest.toObject(message, toObjectOptions) as DecodedRequest;
}

/** Decodes a binary ExportTraceServiceRequest (HTTP/protobuf body or gRPC message). */
export function decodeProtobufRequest(body: Uint8Array): DecodedRequest {
  return toPlain(ExportTraceServiceRequest.decode(body));
}

const hexIdFields = new Set(['traceId', 'spanId', 'parentSpanId']);

// OTLP/JSON differs from the canonical proto3 JSON mapping only in that trace and span ids are hex
// strings instead of base64; convert those to bytes, then let the schema do the rest (int64 as
// string or number, enums as numbers, lowerCamelCase field names, base64 bytesValue).
function hexIdsToBytes(value: unknown, key?: string): unknown {
  if (typeof value === 'string' && key !== undefined && hexIdFields.has(key)) {
    if (!/^([0-9a-fA-F]{2})*$/.test(value)) throw new Error(`invalid hex id in ${key}: ${value}`);
    return Buffer.from(value, 'hex');
  }
  if (Array.isArray(value)) return value.map((item) => hexIdsToBytes(item));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // AnyValue payloads are user data: never reinterpret keys named like ids inside them.
      out[k] = k === 'value' || k === 'values' ? v : hexIdsToBytes(v, k);
    }
    return out;
  }
  return value;
}

/** Decodes an OTLP/JSON ExportTraceServiceRequest body. */
export function decodeJsonRequest(text: string): DecodedRequest {
  // int64 fields may be JSON numbers; keep the source text of integers beyond 2^53 so that
  // nanosecond timestamps survive (JSON.parse source text access, Node 24).
  const parsed: unknown = JSON.parse(text, (_key, value: unknown, context?: {source?: string}) =>
    typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source
      ? context.source
      : value,
  );
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('OTLP/JSON request must be an object');
  }
  // fromObject throws a TypeError on values that do not fit the schema.
  return toPlain(ExportTraceServiceRequest.fromObject(hexIdsToBytes(parsed) as Record<string, unknown>));
}

export function encodeEmptyResponse(): Buffer {
  return Buffer.from(ExportTraceServiceResponse.encode(ExportTraceServiceResponse.create({})).finish());
}

/**
 * grpc-js service definition derived from the TraceService descriptor in the same .proto files.
 * The request is handed to the handler undecoded (Buffer) so that the receiver decodes every
 * protocol through one path; the response is serialised with the schema.
 */
export function traceServiceDefinition(): ServiceDefinition {
  const fullName = TraceService.fullName.replace(/^\./, '');
  const definition: Record<string, MethodDefinition<Buffer, Record<string, unknown>>> = {};
  for (const method of Object.values(TraceService.methods)) {
    method.resolve();
    const responseType = method.resolvedResponseType;
    if (!responseType) throw new Error(`unresolved response type for ${method.name}`);
    definition[method.name] = {
      path: `/${fullName}/${method.name}`,
      requestStream: Boolean(method.requestStream),
      responseStream: Boolean(method.responseStream),
      requestSerialize: (value: Buffer) => value,
      requestDeserialize: (bytes: Buffer) => bytes,
      responseSerialize: (value: Record<string, unknown>) =>
        Buffer.from(responseType.encode(responseType.fromObject(value)).finish()),
      responseDeserialize: (bytes: Buffer) => responseType.toObject(responseType.decode(bytes)),
    };
  }
  return definition as ServiceDefinition;
}
