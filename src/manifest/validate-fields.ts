/** The top level of workflow.yaml: which fields exist, the identity fields, and dispatch to each section. */
import {isScalar, type YAMLMap} from 'yaml';
import {validateBudget} from './budget.ts';
import {validateDescription} from './descriptions.ts';
import {defaultEntrypoint, entrypointProblem, isSemanticVersion, nameProblem} from './field-formats.ts';
import {checkKnownKeys, checkRequiredKeys, fieldLabel, readMapEntries} from './map-entries.ts';
import {validateMcp} from './mcp-servers.ts';
import {validateNamedConfigs} from './named-configs.ts';
import {readString} from './scalar-fields.ts';
import {validateTelemetry} from './telemetry.ts';
import type {WorkflowManifest} from './types.ts';
import {describeValue, type ManifestEntry, quote, type ValidationContext} from './validation-context.ts';

/** Every top-level field a manifest may have, in the order the documentation lists them. */
export const manifestFields = [
  'name',
  'shortDescription',
  'longDescription',
  'version',
  'entrypoint',
  'mcp',
  'agents',
  'decisions',
  'telemetry',
  'budget',
] as const;

const requiredFields = [
  {name: 'name', hint: 'lowercase kebab-case, such as pr-review'},
  {name: 'shortDescription', hint: 'catalog text that helps an agent select the workflow'},
  {name: 'longDescription', hint: 'the manual for correct use of the workflow'},
  {name: 'version', hint: 'a quoted semantic version such as "1.0.0"'},
] as const;

/**
 * Validates the top-level mapping and every section in it, reporting all problems to the context. Returns the
 * manifest built from the valid parts; the caller discards it when any error was reported.
 */
export function validateManifestFields(ctx: ValidationContext, root: YAMLMap): WorkflowManifest | undefined {
  const rootEntry: ManifestEntry = {key: '', keyNode: undefined, value: root, written: root, path: []};
  const entries = readMapEntries(ctx, rootEntry, root);
  const legacy = entries.find((entry) => entry.key === 'description');
  if (legacy !== undefined) reportLegacyDescription(ctx, legacy);
  checkKnownKeys(
    ctx,
    rootEntry,
    entries.filter((entry) => entry.key !== 'description'),
    manifestFields,
  );
  checkRequiredKeys(ctx, rootEntry, entries, requiredFields);

  const field = (key: (typeof manifestFields)[number]) => entries.find((entry) => entry.key === key);
  const nameEntry = field('name');
  const name = nameEntry === undefined ? undefined : validateName(ctx, nameEntry);
  const shortEntry = field('shortDescription');
  const shortDescription =
    shortEntry === undefined ? undefined : validateDescription(ctx, shortEntry, 'shortDescription');
  const longEntry = field('longDescription');
  const longDescription =
    longEntry === undefined ? undefined : validateDescription(ctx, longEntry, 'longDescription');
  const versionEntry = field('version');
  const version = versionEntry === undefined ? undefined : validateVersion(ctx, versionEntry);
  const entrypointEntry = field('entrypoint');
  const entrypoint =
    entrypointEntry === undefined ? defaultEntrypoint : validateEntrypoint(ctx, entrypointEntry);
  const mcpEntry = field('mcp');
  const mcp = mcpEntry === undefined ? undefined : validateMcp(ctx, mcpEntry);
  const agentsEntry = field('agents');
  const agents = agentsEntry === undefined ? undefined : validateNamedConfigs(ctx, agentsEntry, 'agent');
  const decisionsEntry = field('decisions');
  const decisions =
    decisionsEntry === undefined ? undefined : validateNamedConfigs(ctx, decisionsEntry, 'decision');
  const telemetryEntry = field('telemetry');
  const telemetry = telemetryEntry === undefined ? undefined : validateTelemetry(ctx, telemetryEntry);
  const budgetEntry = field('budget');
  const budget = budgetEntry === undefined ? undefined : validateBudget(ctx, budgetEntry);

  if (
    name === undefined ||
    shortDescription === undefined ||
    longDescription === undefined ||
    version === undefined ||
    entrypoint === undefined
  ) {
    return undefined;
  }
  return {
    name,
    shortDescription,
    longDescription,
    version,
    entrypoint,
    ...(mcp === undefined ? {} : {mcp}),
    ...(agents === undefined ? {} : {agents}),
    ...(decisions === undefined ? {} : {decisions}),
    ...(telemetry === undefined ? {} : {telemetry}),
    ...(budget === undefined ? {} : {budget}),
  };
}

function reportLegacyDescription(ctx: ValidationContext, entry: ManifestEntry): void {
  ctx.report(
    'STRATOS_MANIFEST_LEGACY_DESCRIPTION',
    "workflow.yaml uses the legacy field 'description', which is no longer accepted. Replace it with " +
      "'shortDescription' (catalog text that helps an agent select the workflow, one line) and " +
      "'longDescription' (the manual for correct use). There is no automatic migration: write both fields " +
      "yourself and remove 'description'.",
    entry,
    {at: 'key'},
  );
}

function validateName(ctx: ValidationContext, entry: ManifestEntry): string | undefined {
  const name = readString(ctx, entry, {
    hint: 'in lowercase kebab-case such as pr-review',
    code: 'STRATOS_MANIFEST_NAME_INVALID',
  });
  if (name === undefined) return undefined;
  const problem = nameProblem(name);
  if (problem === undefined) return name;
  ctx.report(
    'STRATOS_MANIFEST_NAME_INVALID',
    `${fieldLabel(entry)} ${quote(name)} is invalid: ${problem}`,
    entry,
  );
  return undefined;
}

function validateVersion(ctx: ValidationContext, entry: ManifestEntry): string | undefined {
  const value = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof value === 'string' && isSemanticVersion(value)) return value;
  let advice: string;
  if (typeof value === 'number' || typeof value === 'bigint') {
    const source = ctx.sourceOf(entry.value) ?? String(value);
    advice =
      `got the number ${source}, because YAML reads unquoted ${source} as a number. ` +
      `Quote a full semantic version, such as version: "${suggestVersion(source)}".`;
  } else if (typeof value === 'string') {
    const withoutV = /^v\d/i.test(value) ? ` Drop the leading 'v': "${value.slice(1)}".` : '';
    advice = `got ${quote(value)}.${withoutV} Write MAJOR.MINOR.PATCH such as "1.0.0" (semver.org 2.0.0).`;
  } else {
    advice = `got ${describeValue(entry.value)}. Write a quoted version such as "1.0.0".`;
  }
  ctx.report(
    'STRATOS_MANIFEST_VERSION_INVALID',
    `${fieldLabel(entry)} must be a semantic version string; ${advice}`,
    entry,
  );
  return undefined;
}

function validateEntrypoint(ctx: ValidationContext, entry: ManifestEntry): string | undefined {
  const value = readString(ctx, entry, {
    hint: 'such as workflow.ts',
    code: 'STRATOS_MANIFEST_ENTRYPOINT_INVALID',
  });
  if (value === undefined) return undefined;
  const problem = entrypointProblem(value);
  if (problem === undefined) return value;
  ctx.report(
    'STRATOS_MANIFEST_ENTRYPOINT_INVALID',
    `${fieldLabel(entry)} ${quote(value)} is invalid: ${problem}`,
    entry,
  );
  return undefined;
}

/** Pads a numeric version to three parts: `1.0` becomes `1.0.0`, `2` becomes `2.0.0`. */
function suggestVersion(source: string): string {
  const parts = source.split('.').filter((part) => /^\d+$/.test(part));
  while (parts.length < 3) parts.push('0');
  return parts
    .slice(0, 3)
    .map((part) => String(Number(part)))
    .join('.');
}
