/**
 * The `agents` and `decisions` sections: maps of name to a configuration mapping. Only that shape is checked
 * here; the agents and decision modules validate the fields inside, using the same locator for their locations.
 */
import {isScalar, type YAMLMap} from 'yaml';
import {agentHarnessIds} from './field-formats.ts';
import {fieldLabel, readMapEntries, requireMapping} from './map-entries.ts';
import {describeValue, type ManifestEntry, type ValidationContext} from './validation-context.ts';

/** Validates a map of named configurations and returns it as plain data when every entry is a mapping. */
export function validateNamedConfigs(
  ctx: ValidationContext,
  entry: ManifestEntry,
  kind: 'agent' | 'decision',
): Record<string, Record<string, unknown>> | undefined {
  const map = requireMapping(ctx, entry, `of ${kind} name to its settings`);
  if (map === undefined) return undefined;
  const configs: [string, Record<string, unknown>][] = [];
  let valid = true;
  for (const child of readMapEntries(ctx, entry, map)) {
    const config = requireMapping(ctx, child, `of ${kind} settings`);
    if (config === undefined) {
      valid = false;
      continue;
    }
    const value = toPlainObject(ctx, child, kind);
    if (value === undefined) valid = false;
    else if (kind === 'agent' && !checkHarness(ctx, child, config)) valid = false;
    else configs.push([child.key, value]);
  }
  return valid ? Object.fromEntries(configs) : undefined;
}

/** An agent's `harness` must name a known harness: a typo fails the build, not the first execute. */
function checkHarness(ctx: ValidationContext, agent: ManifestEntry, config: YAMLMap): boolean {
  const pair = config.items.find((item) => isScalar(item.key) && item.key.value === 'harness');
  if (pair === undefined) return true;
  const node = ctx.resolve(pair.value);
  const entry: ManifestEntry = {
    key: 'harness',
    keyNode: pair.key as ManifestEntry['keyNode'],
    value: node,
    written: node === null ? null : (pair.value as ManifestEntry['written']),
    path: [...agent.path, 'harness'],
  };
  const value = isScalar(node) ? node.value : undefined;
  if (typeof value === 'string' && (agentHarnessIds as readonly string[]).includes(value)) return true;
  ctx.report(
    'STRATOS_MANIFEST_FIELD_INVALID',
    `${fieldLabel(entry)} is ${describeValue(entry.value)}; it must be one of ${agentHarnessIds.join(', ')}.`,
    entry,
  );
  return false;
}

function toPlainObject(
  ctx: ValidationContext,
  entry: ManifestEntry,
  kind: 'agent' | 'decision',
): Record<string, unknown> | undefined {
  try {
    const value: unknown = ctx.toJS(entry.value);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch (error) {
    ctx.report(
      'STRATOS_MANIFEST_FIELD_INVALID',
      `${fieldLabel(entry)} could not be read as ${kind} settings: ${(error as Error).message}. ` +
        'Write the settings out instead of nesting aliases.',
      entry,
    );
    return undefined;
  }
  ctx.report(
    'STRATOS_MANIFEST_FIELD_INVALID',
    `${fieldLabel(entry)} must be a mapping of ${kind} settings; got ${describeValue(entry.value)}.`,
    entry,
  );
  return undefined;
}
