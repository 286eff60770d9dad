import {resolveConfiguredPath} from '../../internal/configured-path.ts';
import {sha256Hex} from '../../internal/hash.ts';

/** The manifest's exporter configuration (structurally `TelemetryExporterConfig` of the manifest module). */
export type ExporterSettings =
  | {type: 'file'; path: string}
  | {
      type: 'otlp';
      protocol: 'http/json' | 'http/protobuf' | 'grpc';
      endpoint: string;
      headers?: Record<string, string>;
    };

export type Destination =
  | {key: string; label: string; type: 'file'; path: string}
  | {
      key: string;
      label: string;
      type: 'otlp';
      protocol: 'http/json' | 'http/protobuf' | 'grpc';
      endpoint: string;
      headers: Record<string, string>;
    };

/** Resolves `{env:}`/`{file:}` references of a header map (injected: the resolver lives in config/). */
export type HeaderResolver = (
  headers: Record<string, string>,
  field: (name: string) => string,
) => Promise<Record<string, string>>;

export interface ResolvedDestinations {
  destinations: Destination[];
  problems: {label: string; error: unknown}[];
}

/**
 * Resolves each exporter; one that cannot be resolved is left out and reported, the others still export.
 * File paths resolve like every other path in workflow.yaml: absolute, `~/` in the home directory, or relative to
 * `workflowDirectory`.
 */
export async function resolveDestinations(
  exporters: readonly ExporterSettings[],
  workflowDirectory: string,
  resolveHeaders: HeaderResolver,
): Promise<ResolvedDestinations> {
  const result: ResolvedDestinations = {destinations: [], problems: []};
  for (const [index, exporter] of exporters.entries()) {
    if (exporter.type === 'file') {
      const path = resolveConfiguredPath(exporter.path, workflowDirectory);
      result.destinations.push({key: `file ${path}`, label: `file ${path}`, type: 'file', path});
      continue;
    }
    const label = `otlp ${exporter.protocol} ${safeEndpoint(exporter.endpoint)}`;
    let headers: Record<string, string>;
    try {
      headers = await resolveHeaders(
        exporter.headers ?? {},
        (name) => `header '${name}' of telemetry exporter ${index + 1} (${label})`,
      );
    } catch (error) {
      result.problems.push({label, error});
      continue;
    }
    const sorted = Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), value])
      .sort(([a], [b]) => (a! < b! ? -1 : 1));
    const key = `otlp ${exporter.protocol} ${exporter.endpoint} ${sha256Hex(JSON.stringify(sorted))}`;
    result.destinations.push({
      key,
      label,
      type: 'otlp',
      protocol: exporter.protocol,
      endpoint: exporter.endpoint,
      headers,
    });
  }
  return result;
}

/** An endpoint for messages: user information in a URL is a credential too. */
export function safeEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    if (url.username !== '' || url.password !== '') {
      url.username = '';
      url.password = '';
    }
    url.search = '';
    return url.toString();
  } catch {
    return '(invalid URL)';
  }
}
