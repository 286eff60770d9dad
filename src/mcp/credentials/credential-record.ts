/**
 * The records of ~/.stratos/credentials.json and their version 1 file format:
 * `{"version": 1, "records": [{serverUrl, authorizationServer, clientId, ...}]}`. A record is identified by server
 * URL, authorization server and client id, never by a workflow's local server name. Parsing is strict: a field of
 * the wrong type is a malformed file, reported without quoting any value.
 */
import {AuthenticationError, registerCredentialSecret} from '../../errors/index.ts';

export interface CredentialIdentity {
  /** The MCP server URL as configured in workflow.yaml. */
  serverUrl: string;
  /** The issuer of the authorization server discovered for the MCP server. */
  authorizationServer: string;
  clientId: string;
}

export interface CredentialRecord extends CredentialIdentity {
  clientSecret?: string;
  /** Unix seconds; 0 or absent means the secret does not expire (RFC 7591). */
  clientSecretExpiresAt?: number;
  tokenEndpointAuthMethod?: string;
  accessToken?: string;
  refreshToken?: string;
  /** Unix seconds. Absent when the token response carried no `expires_in`. */
  expiresAt?: number;
  scope?: string;
  /** Fields of the stored record this Stratos does not know (a newer Stratos wrote them): kept on rewrite. */
  unknownFields?: Record<string, unknown>;
}

export const credentialFileVersion = 1;

const stringKeys = [
  'clientSecret',
  'tokenEndpointAuthMethod',
  'accessToken',
  'refreshToken',
  'scope',
] as const satisfies readonly (keyof CredentialRecord)[];
const numberKeys = [
  'clientSecretExpiresAt',
  'expiresAt',
] as const satisfies readonly (keyof CredentialRecord)[];
const identityKeys = ['serverUrl', 'authorizationServer', 'clientId'] as const;
const secretKeys = ['clientSecret', 'accessToken', 'refreshToken'] as const;

export function sameIdentity(a: CredentialIdentity, b: CredentialIdentity): boolean {
  return (
    a.serverUrl === b.serverUrl &&
    a.authorizationServer === b.authorizationServer &&
    a.clientId === b.clientId
  );
}

/** The identity fields of a record only (safe to show: no secret). */
export function identityOf(record: CredentialIdentity): CredentialIdentity {
  return {
    serverUrl: record.serverUrl,
    authorizationServer: record.authorizationServer,
    clientId: record.clientId,
  };
}

/** Registers every secret value of the records for redaction (see registerCredentialSecret). */
export function registerRecordSecrets(records: readonly CredentialRecord[]): void {
  for (const record of records) for (const key of secretKeys) registerCredentialSecret(record[key]);
}

/**
 * Parses the text of a credential file.
 *
 * @throws AuthenticationError `STRATOS_CREDENTIALS_MALFORMED` naming the file and what is wrong, never a value.
 */
export function parseCredentialFile(
  text: string,
  file: string,
): {records: CredentialRecord[]; extra: Record<string, unknown>} {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // JSON.parse messages quote the text around the problem, which may be a token: say only that it is not JSON.
    throw malformed(file, 'it is not valid JSON');
  }
  const records = parseCredentialData(data, file);
  const extra = Object.fromEntries(
    Object.entries(data as Record<string, unknown>).filter(([key]) => key !== 'version' && key !== 'records'),
  );
  return {records, extra};
}

/** Validates parsed credential data (the file, or a pending rotation's record list). */
export function parseCredentialData(data: unknown, file: string): CredentialRecord[] {
  if (!isObject(data)) throw malformed(file, 'the top level is not an object');
  if (data.version !== credentialFileVersion) {
    throw malformed(
      file,
      typeof data.version === 'number'
        ? `its version is ${data.version}; this Stratos reads version ${credentialFileVersion}`
        : 'it has no numeric version',
    );
  }
  if (!Array.isArray(data.records)) throw malformed(file, 'records is not an array');
  const records = data.records.map((item, index) => parseRecord(item, index, file));
  registerRecordSecrets(records);
  return records;
}

function parseRecord(item: unknown, index: number, file: string): CredentialRecord {
  const where = `records[${index}]`;
  if (!isObject(item)) throw malformed(file, `${where} is not an object`);
  const record: Partial<CredentialRecord> = {};
  const known = new Set<string>([...identityKeys, ...stringKeys, ...numberKeys]);
  const unknownFields = Object.entries(item).filter(([key]) => !known.has(key));
  if (unknownFields.length > 0) record.unknownFields = Object.fromEntries(unknownFields);
  for (const key of identityKeys) {
    const value = item[key];
    if (typeof value !== 'string' || value === '')
      throw malformed(file, `${where}.${key} is not a non-empty string`);
    record[key] = value;
  }
  for (const key of stringKeys) {
    const value = item[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw malformed(file, `${where}.${key} is not a string`);
    record[key] = value;
  }
  for (const key of numberKeys) {
    const value = item[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw malformed(file, `${where}.${key} is not a number`);
    record[key] = value;
  }
  return record as CredentialRecord;
}

/**
 * The records a writer produced, each with the unknown fields of the stored record of the same identity that it
 * does not carry itself. The store applies this to every write, so no writer (a sign-in, a client-credentials
 * token, a refresh, a binding) can drop fields a newer Stratos wrote, whether or not it started from the stored
 * record.
 */
export function keepUnknownFields(
  stored: readonly CredentialRecord[],
  written: readonly CredentialRecord[],
): CredentialRecord[] {
  return written.map((record) => {
    const before = stored.find((item) => sameIdentity(item, record))?.unknownFields;
    if (before === undefined) return record;
    return {...record, unknownFields: {...before, ...record.unknownFields}};
  });
}

/** The stored form of one record: known fields in a stable order after the unknown ones (which are kept). */
export function serializeRecord(record: CredentialRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {...record.unknownFields};
  for (const key of [...identityKeys, ...stringKeys, ...numberKeys]) {
    if (record[key] !== undefined) out[key] = record[key];
  }
  return out;
}

/** The file text of `records`: stable key order, one record per entry; unknown fields kept after the known. */
export function serializeCredentialFile(
  records: readonly CredentialRecord[],
  extra: Record<string, unknown> = {},
): string {
  const ordered = records.map(serializeRecord);
  return `${JSON.stringify({...extra, version: credentialFileVersion, records: ordered}, null, 2)}\n`;
}

function malformed(file: string, problem: string): AuthenticationError {
  return new AuthenticationError(
    'STRATOS_CREDENTIALS_MALFORMED',
    `The credential file ${file} cannot be read: ${problem}. Stratos left it unchanged. Fix or move the file (then sign in again with 'stratos mcp login --name <server>').`,
    {details: {file}},
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
