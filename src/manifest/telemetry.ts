/** The `telemetry` section: where traces of a run are exported, as a list of file or OTLP exporters. */
import {isScalar} from 'yaml';
import {checkRequiredKeys, fieldLabel, readSeqEntries, requireList, requireMapping} from './map-entries.ts';
import {readFixedMapping, readString, readStringMap, readUrl} from './scalar-fields.ts';
import type {TelemetryExporterConfig} from './types.ts';
import {describeValue, type ManifestEntry, type ValidationContext} from './validation-context.ts';

/** The OTLP transports the runtime ships exporters for. */
export const otlpProtocols = ['http/json', 'http/protobuf', 'grpc'] as const;

type OtlpProtocol = (typeof otlpProtocols)[number];

/** Validates the `telemetry` entry and returns `{exporters}` when it has no error. */
export function validateTelemetry(
  ctx: ValidationContext,
  entry: ManifestEntry,
): {exporters: TelemetryExporterConfig[]} | undefined {
  const fields = readFixedMapping(ctx, entry, ['exporters'], 'with an exporters list');
  if (fields === undefined) return undefined;
  const exportersEntry = fields.get('exporters');
  if (exportersEntry === undefined) {
    checkRequiredKeys(ctx, entry, [], [{name: 'exporters', hint: 'a list of file or otlp exporters'}]);
    return undefined;
  }
  const seq = requireList(ctx, exportersEntry, "of exporters, each with type 'file' or 'otlp'");
  if (seq === undefined) return undefined;
  const exporters: TelemetryExporterConfig[] = [];
  let valid = true;
  for (const item of readSeqEntries(ctx, exportersEntry, seq)) {
    const exporter = validateExporter(ctx, item);
    if (exporter === undefined) valid = false;
    else exporters.push(exporter);
  }
  return valid ? {exporters} : undefined;
}

function validateExporter(ctx: ValidationContext, item: ManifestEntry): TelemetryExporterConfig | undefined {
  const map = requireMapping(ctx, item, "with type 'file' (path) or 'otlp' (protocol, endpoint)");
  if (map === undefined) return undefined;
  const typePair = map.items.find((pair) => isScalar(pair.key) && pair.key.value === 'type');
  const type = isScalar(typePair?.value) ? typePair.value.value : undefined;
  if (type === 'file') return validateFileExporter(ctx, item);
  if (type === 'otlp') return validateOtlpExporter(ctx, item);
  const fields = readFixedMapping(ctx, item, ['type', 'path', 'protocol', 'endpoint', 'headers'], '');
  const typeEntry = fields?.get('type');
  if (typeEntry === undefined) {
    checkRequiredKeys(ctx, item, [], [{name: 'type', hint: "'file' or 'otlp'"}]);
  } else {
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(typeEntry)} must be 'file' or 'otlp'; got ${describeValue(typeEntry.value)}.`,
      typeEntry,
    );
  }
  return undefined;
}

function validateFileExporter(
  ctx: ValidationContext,
  item: ManifestEntry,
): TelemetryExporterConfig | undefined {
  const fields = readFixedMapping(ctx, item, ['type', 'path'], '');
  if (fields === undefined) return undefined;
  const before = ctx.errorCount();
  checkRequiredKeys(
    ctx,
    item,
    [...fields.values()],
    [{name: 'path', hint: 'the file the traces are written to'}],
  );
  const pathEntry = fields.get('path');
  const path =
    pathEntry === undefined
      ? undefined
      : readString(ctx, pathEntry, {nonBlank: true, hint: 'such as traces.jsonl'});
  if (path === undefined || ctx.errorCount() !== before) return undefined;
  return {type: 'file', path};
}

function validateOtlpExporter(
  ctx: ValidationContext,
  item: ManifestEntry,
): TelemetryExporterConfig | undefined {
  const fields = readFixedMapping(ctx, item, ['type', 'protocol', 'endpoint', 'headers'], '');
  if (fields === undefined) return undefined;
  const before = ctx.errorCount();
  checkRequiredKeys(
    ctx,
    item,
    [...fields.values()],
    [
      {name: 'protocol', hint: otlpProtocols.join(', ')},
      {name: 'endpoint', hint: 'the collector URL'},
    ],
  );
  const protocolEntry = fields.get('protocol');
  const protocol = protocolEntry === undefined ? undefined : readProtocol(ctx, protocolEntry);
  const endpointEntry = fields.get('endpoint');
  const endpoint =
    endpointEntry === undefined
      ? undefined
      : readUrl(ctx, endpointEntry, ['http', 'https'], 'http://localhost:4318/v1/traces');
  const headersEntry = fields.get('headers');
  const headers = headersEntry === undefined ? undefined : readStringMap(ctx, headersEntry, 'header');
  if (protocol === undefined || endpoint === undefined || ctx.errorCount() !== before) return undefined;
  return {type: 'otlp', protocol, endpoint, ...(headers === undefined ? {} : {headers})};
}

function readProtocol(ctx: ValidationContext, entry: ManifestEntry): OtlpProtocol | undefined {
  const value = isScalar(entry.value) ? entry.value.value : undefined;
  const protocol = otlpProtocols.find((candidate) => candidate === value);
  if (protocol !== undefined) return protocol;
  ctx.report(
    'STRATOS_MANIFEST_FIELD_INVALID',
    `${fieldLabel(entry)} must be one of ${otlpProtocols.join(', ')}; got ${describeValue(entry.value)}.`,
    entry,
  );
  return undefined;
}
