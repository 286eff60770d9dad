/**
 * The `mcp` section: a map of server name to an HTTP or stdio server. The map key is the name agents select and
 * wrapper files use, which is why it is a map and not a list.
 */
import {isScalar, isSeq} from 'yaml';
import {isReservedDeviceName} from './field-formats.ts';
import {checkRequiredKeys, fieldLabel, readMapEntries, requireMapping} from './map-entries.ts';
import {validateOAuth} from './oauth-config.ts';
import {readFixedMapping, readString, readStringList, readStringMap, readUrl} from './scalar-fields.ts';
import type {HttpMcpServerConfig, McpServerConfig, StdioMcpServerConfig} from './types.ts';
import {describeValue, type ManifestEntry, quote, type ValidationContext} from './validation-context.ts';

/** Server names: a letter, then letters, digits, `_` and `-` (they become file names and agent selections). */
export const mcpServerNamePattern = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The longest server name, in characters: the wrapper's file name must fit every file system. */
export const mcpServerNameMaxLength = 64;

const httpKeys = ['type', 'url', 'headers', 'auth'] as const;
const stdioKeys = ['type', 'command', 'args', 'env'] as const;

/** Validates the `mcp` entry and returns `{servers}` when it has no error. */
export function validateMcp(
  ctx: ValidationContext,
  entry: ManifestEntry,
): {servers: Record<string, McpServerConfig>} | undefined {
  const fields = readFixedMapping(ctx, entry, ['servers'], 'with a servers map');
  if (fields === undefined) return undefined;
  const serversEntry = fields.get('servers');
  if (serversEntry === undefined) {
    checkRequiredKeys(ctx, entry, [], [{name: 'servers', hint: 'a map of server name to server settings'}]);
    return undefined;
  }
  if (isSeq(serversEntry.value)) {
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(serversEntry)} is a list, but it must be a map keyed by server name, such as ` +
        "'github:' followed by that server's type and url. Replace each '- ' item with 'name:'.",
      serversEntry,
    );
    return undefined;
  }
  const map = requireMapping(ctx, serversEntry, 'keyed by server name');
  if (map === undefined) return undefined;
  const servers: [string, McpServerConfig][] = [];
  let valid = true;
  for (const server of readMapEntries(ctx, serversEntry, map)) {
    if (!mcpServerNamePattern.test(server.key)) {
      valid = false;
      ctx.report(
        'STRATOS_MANIFEST_FIELD_INVALID',
        `MCP server name ${quote(server.key)} in workflow.yaml is invalid: it must start with a letter and ` +
          'contain only letters, digits, _ and -. Rename it.',
        server,
        {at: 'key'},
      );
    } else if (server.key.length > mcpServerNameMaxLength || isReservedDeviceName(server.key)) {
      valid = false;
      ctx.report(
        'STRATOS_MANIFEST_FIELD_INVALID',
        server.key.length > mcpServerNameMaxLength
          ? `MCP server name ${quote(server.key)} in workflow.yaml has ${server.key.length} characters; the limit is ${mcpServerNameMaxLength} (it becomes the wrapper's file name). Shorten it.`
          : `MCP server name ${quote(server.key)} in workflow.yaml is a device name Windows reserves, so its wrapper file could not exist there. Rename it.`,
        server,
        {at: 'key'},
      );
    }
    const config = validateServer(ctx, server);
    if (config === undefined) valid = false;
    else servers.push([server.key, config]);
  }
  return valid ? {servers: Object.fromEntries(servers)} : undefined;
}

function validateServer(ctx: ValidationContext, server: ManifestEntry): McpServerConfig | undefined {
  const map = requireMapping(ctx, server, "with type 'http' (url) or 'stdio' (command)");
  if (map === undefined) return undefined;
  const entries = readMapEntries(ctx, server, map);
  const typeEntry = entries.find((child) => child.key === 'type');
  if (typeEntry === undefined) {
    checkRequiredKeys(ctx, server, entries, [{name: 'type', hint: "'http' or 'stdio'"}]);
    return undefined;
  }
  const type = isScalar(typeEntry.value) ? typeEntry.value.value : undefined;
  if (type === 'http') return validateHttpServer(ctx, server);
  if (type === 'stdio') return validateStdioServer(ctx, server);
  ctx.report(
    'STRATOS_MANIFEST_FIELD_INVALID',
    `${fieldLabel(typeEntry)} must be 'http' or 'stdio'; got ${describeValue(typeEntry.value)}.`,
    typeEntry,
  );
  return undefined;
}

function validateHttpServer(ctx: ValidationContext, server: ManifestEntry): HttpMcpServerConfig | undefined {
  const fields = readFixedMapping(ctx, server, httpKeys, '');
  if (fields === undefined) return undefined;
  const before = ctx.errorCount();
  checkRequiredKeys(
    ctx,
    server,
    [...fields.values()],
    [{name: 'url', hint: 'the MCP endpoint, an http or https URL'}],
  );
  const urlEntry = fields.get('url');
  const url =
    urlEntry === undefined
      ? undefined
      : readUrl(ctx, urlEntry, ['http', 'https'], 'https://mcp.example.com/mcp');
  const headersEntry = fields.get('headers');
  const headers = headersEntry === undefined ? undefined : readStringMap(ctx, headersEntry, 'header');
  const authEntry = fields.get('auth');
  const auth = authEntry === undefined ? undefined : validateOAuth(ctx, authEntry);
  if (url === undefined || ctx.errorCount() !== before) return undefined;
  return {
    type: 'http',
    url,
    ...(headers === undefined ? {} : {headers}),
    ...(auth === undefined ? {} : {auth}),
  };
}

function validateStdioServer(
  ctx: ValidationContext,
  server: ManifestEntry,
): StdioMcpServerConfig | undefined {
  const fields = readFixedMapping(ctx, server, stdioKeys, '');
  if (fields === undefined) return undefined;
  const before = ctx.errorCount();
  checkRequiredKeys(
    ctx,
    server,
    [...fields.values()],
    [{name: 'command', hint: 'the program that starts the server'}],
  );
  const commandEntry = fields.get('command');
  const command =
    commandEntry === undefined
      ? undefined
      : readString(ctx, commandEntry, {nonBlank: true, hint: 'such as node'});
  const argsEntry = fields.get('args');
  const args = argsEntry === undefined ? undefined : readStringList(ctx, argsEntry);
  const envEntry = fields.get('env');
  const env = envEntry === undefined ? undefined : readStringMap(ctx, envEntry, 'environment variable');
  if (command === undefined || ctx.errorCount() !== before) return undefined;
  return {
    type: 'stdio',
    command,
    ...(args === undefined ? {} : {args}),
    ...(env === undefined ? {} : {env}),
  };
}
