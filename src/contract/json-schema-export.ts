/**
 * JSON Schema export of a workflow contract (draft 2020-12): input in Zod's `input` mode, where
 * defaulted fields are optional, and output in the default `output` mode. Every `$ref` must resolve
 * inside the exported document, because agents receive each schema on its own.
 */
import {z} from 'zod';
import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import type {ContractSide} from './contract-rules.ts';
import type {WorkflowDefinition} from './define-workflow.ts';
import {findDescription, ownDescription} from './schema-description.ts';

/** A JSON Schema document or subschema as plain JSON data. */
export type JsonSchema = {[keyword: string]: unknown};

/** The two exported schemas of a workflow. */
export interface WorkflowJsonSchemas {
  input: JsonSchema;
  output: JsonSchema;
}

/** Wrappers whose JSON Schema can end up without the field's description (`nullable` becomes an `anyOf`). */
const wrapperTypes = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional']);

/** Keywords whose values are data, not subschemas, so a `$ref` key inside them is not a reference. */
const dataKeywords = new Set(['const', 'enum', 'default', 'examples']);

/**
 * Exports both schemas of a workflow. Run {@link checkWorkflowContract} first: a schema with custom
 * refinements exports without error but describes less than Zod enforces.
 *
 * @throws StratosError `STRATOS_CONTRACT_UNREPRESENTABLE` when Zod cannot export a schema, and
 *   `STRATOS_CONTRACT_REF_UNRESOLVED` when a `$ref` points outside the exported document.
 */
export function exportJsonSchemas(definition: WorkflowDefinition): WorkflowJsonSchemas {
  return {
    input: exportSideSchema(definition.input, 'input'),
    output: exportSideSchema(definition.output, 'output'),
  };
}

/** Exports one side of the contract; see {@link exportJsonSchemas} for the errors it throws. */
export function exportSideSchema(schema: z.core.$ZodType, side: ContractSide): JsonSchema {
  let exported: JsonSchema;
  try {
    exported = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: side,
      unrepresentable: 'throw',
      cycles: 'ref',
      override: hoistWrappedDescription,
    }) as JsonSchema;
  } catch (error) {
    throw new StratosError(
      'STRATOS_CONTRACT_UNREPRESENTABLE',
      `The ${side} schema cannot be exported as JSON Schema: ${describeError(error)}. ` +
        'Run stratos build to see which field is affected.',
      {cause: error},
    );
  }
  const unresolved = collectUnresolvedRefs(exported);
  if (unresolved.length > 0) {
    throw new StratosError(
      'STRATOS_CONTRACT_REF_UNRESOLVED',
      `The exported ${side} JSON Schema has references that do not resolve inside it: ${unresolved.join(', ')}.`,
      {details: {side, refs: unresolved}},
    );
  }
  return exported;
}

/**
 * Puts a field's description next to its type when Zod left it on an inner schema, e.g. inside the
 * `anyOf` that `z.string().describe('x').nullable()` becomes, so readers find it at the property.
 */
function hoistWrappedDescription(ctx: {
  zodSchema: z.core.$ZodType;
  jsonSchema: z.core.JSONSchema.BaseSchema;
}): void {
  const type = ctx.zodSchema._zod.def.type;
  if (!wrapperTypes.has(type) || ctx.jsonSchema.description !== undefined) return;
  if (ownDescription(ctx.zodSchema) !== undefined) return;
  const description = findDescription(ctx.zodSchema);
  if (description !== undefined) ctx.jsonSchema.description = description;
}

/**
 * Lists the `$ref` values in `schema` that do not resolve inside it: JSON pointers (`#/$defs/x`) that
 * point nowhere, anchors (`#name`) without a matching `$anchor`, and any other reference that is not
 * the `$id` of a subschema. Each reference is listed once, in document order.
 */
export function collectUnresolvedRefs(schema: unknown): string[] {
  const refs: string[] = [];
  const ids = new Set<string>();
  const anchors = new Set<string>();
  const seen = new Set<unknown>();
  const scan = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) scan(item);
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') refs.push(child);
      else if (key === '$id' && typeof child === 'string') ids.add(child);
      else if (key === '$anchor' && typeof child === 'string') anchors.add(child);
      else if (!dataKeywords.has(key)) scan(child);
    }
  };
  scan(schema);

  const unresolved = new Set<string>();
  for (const ref of refs) {
    const resolves =
      ref === '#' ||
      (ref.startsWith('#/') && resolvePointer(schema, ref.slice(1))) ||
      (ref.startsWith('#') && anchors.has(ref.slice(1))) ||
      ids.has(ref);
    if (!resolves) unresolved.add(ref);
  }
  return [...unresolved];
}

/** Whether a JSON pointer (RFC 6901, URI-fragment encoded) names a value inside `root`. */
function resolvePointer(root: unknown, pointer: string): boolean {
  let current: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return false;
    }
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, token)) return false;
    current = (current as Record<string, unknown>)[token];
  }
  return typeof current === 'object' || typeof current === 'boolean';
}
