/**
 * The per-schema rules of the workflow contract: descriptions on fields, strict input objects,
 * JSON-compatible types, and nothing that `z.toJSONSchema` would export unfaithfully.
 */
import type {z} from 'zod';
import type {Diagnostic, ErrorCode} from '../errors/index.ts';
import {findDescription} from './schema-description.ts';
import {sidePath} from './schema-path.ts';
import type {SchemaNode} from './walk-schema.ts';

/** Which half of the contract a schema belongs to. */
export type ContractSide = 'input' | 'output';

/** Zod types with no JSON value, with the replacement to suggest. */
const unsupportedTypes = new Map<string, {name: string; hint: string}>(
  Object.entries({
    bigint: {name: 'z.bigint()', hint: 'Use z.number().int(), or a string of digits for values beyond 2^53.'},
    date: {name: 'z.date()', hint: 'Use z.iso.datetime() or z.iso.date() and convert in run.'},
    map: {name: 'z.map()', hint: 'Use z.record(z.string(), ...) or an array of entries.'},
    set: {name: 'z.set()', hint: 'Use z.array(...).'},
    symbol: {name: 'z.symbol()', hint: 'Use z.string() or z.enum([...]).'},
    undefined: {name: 'z.undefined()', hint: 'Make the field optional with .optional() instead.'},
    void: {name: 'z.void()', hint: 'Make the field optional with .optional() instead.'},
    function: {name: 'z.function()', hint: 'Functions cannot cross the JSON boundary; remove the field.'},
    promise: {name: 'z.promise()', hint: 'Declare the resolved value type; run may itself be async.'},
    nan: {name: 'z.nan()', hint: 'Use z.number() or z.null().'},
    file: {name: 'z.file()', hint: 'Pass a path or base64 text as z.string().'},
    custom: {name: 'z.custom() or z.instanceof()', hint: 'Declare the value with JSON types.'},
  }),
);

/** Applies every per-schema rule to one walked schema, appending the violations to `diagnostics`. */
export function checkSchemaNode(node: SchemaNode, side: ContractSide, diagnostics: Diagnostic[]): void {
  const {schema, path} = node;
  const def = schema._zod.def;
  const report = (code: ErrorCode, message: string): void => {
    diagnostics.push({code, severity: 'error', message, path: sidePath(side, path)});
  };
  const subject = describeSubject(side, path);

  if (node.field !== undefined && findDescription(schema) === undefined) {
    report(
      'STRATOS_CONTRACT_DESCRIPTION_MISSING',
      `${subject} has no description. Add .describe('...') or .meta({description: '...'}); ` +
        'an empty string is allowed for a self-explanatory name.',
    );
  }

  checkRefinements(def, subject, report);

  const unsupported = unsupportedTypes.get(def.type);
  if (unsupported !== undefined) {
    report(
      'STRATOS_CONTRACT_UNSUPPORTED_TYPE',
      `${subject} uses ${unsupported.name}, which is not a JSON type. ${unsupported.hint}`,
    );
    return;
  }

  switch (def.type) {
    case 'object':
      if (side === 'input' && !isStrictObject(def)) {
        report(
          'STRATOS_CONTRACT_INPUT_NOT_STRICT',
          `${describeObject(side, path)} accepts unknown fields. Declare it with z.strictObject({...}) (or call .strict()) ` +
            'so that unknown input fields are rejected.',
        );
      }
      return;
    case 'record':
      if (!isStringKey(def.keyType)) {
        report(
          'STRATOS_CONTRACT_UNSUPPORTED_TYPE',
          `${subject} is a record whose keys are not strings; JSON object keys are always strings. ` +
            'Use z.string(), a string z.enum([...]) or string literals as the key schema.',
        );
      }
      if (side === 'input' && def.mode === 'loose') {
        report(
          'STRATOS_CONTRACT_INPUT_NOT_STRICT',
          `${subject} is a z.looseRecord() that passes unmatched keys through unchecked. Use z.record(...) so that ` +
            'every input key is validated.',
        );
      }
      return;
    case 'literal':
      for (const value of def.values) {
        if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
          report(
            'STRATOS_CONTRACT_UNSUPPORTED_TYPE',
            `${subject} uses the literal ${String(value)}${typeof value === 'bigint' ? 'n' : ''}, which is not a JSON value. ` +
              'Use string, number, boolean or null literals.',
          );
        }
      }
      return;
    case 'transform':
      report(
        'STRATOS_CONTRACT_UNREPRESENTABLE',
        `${subject} uses a transformation (.transform() or z.preprocess()), which JSON Schema cannot describe. ` +
          'Declare the value as it is sent and move the transformation into run.',
      );
      return;
    case 'pipe':
      if ('transform' in def && typeof def.transform === 'function') {
        report(
          'STRATOS_CONTRACT_UNREPRESENTABLE',
          `${subject} uses a codec (z.codec(), z.stringbool() or similar), which JSON Schema cannot describe. ` +
            'Declare the value as it is sent and move the conversion into run.',
        );
      } else if (def.in._zod.def.type !== 'transform' && def.out._zod.def.type !== 'transform') {
        // A transforming pipe is reported at its transform; a plain pipe is still unfaithful, because the
        // export shows only one stage (the first for input, the last for output).
        report(
          'STRATOS_CONTRACT_UNREPRESENTABLE',
          `${subject} uses .pipe(), and the exported JSON Schema can describe only one of its stages. ` +
            'Combine the checks into one schema and move any further processing into run.',
        );
      }
      return;
    case 'catch':
      report(
        'STRATOS_CONTRACT_UNREPRESENTABLE',
        `${subject} uses .catch(), which replaces invalid values with a fallback that JSON Schema cannot describe. ` +
          'Remove it and handle the fallback in run.',
      );
      return;
    case 'success':
      report(
        'STRATOS_CONTRACT_UNREPRESENTABLE',
        `${subject} uses z.success(), which turns a value into a boolean that JSON Schema cannot describe. ` +
          'Declare the value itself and test it in run.',
      );
      return;
    default:
      return;
  }
}

/** Custom checks and value rewrites run in Zod only; the JSON Schema export silently drops them. */
function checkRefinements(
  def: z.core.$ZodTypeDef,
  subject: string,
  report: (code: ErrorCode, message: string) => void,
): void {
  const kinds = new Set((def.checks ?? []).map((check) => check._zod.def.check));
  if (kinds.has('custom')) {
    report(
      'STRATOS_CONTRACT_UNREPRESENTABLE',
      `${subject} has a custom check (.refine(), .superRefine() or .check()) that JSON Schema cannot describe. ` +
        'Keep built-in checks such as .min() or .regex() in the schema and move business checks into run.',
    );
  }
  if (kinds.has('overwrite')) {
    report(
      'STRATOS_CONTRACT_UNREPRESENTABLE',
      `${subject} rewrites its value (.trim(), .toLowerCase(), .overwrite() or similar), which JSON Schema cannot ` +
        'describe. Move the transformation into run.',
    );
  }
}

/** Strict means the catchall is `never`: `z.strictObject` and `.strict()` set exactly that. */
function isStrictObject(def: z.core.$ZodObjectDef): boolean {
  return def.catchall !== undefined && def.catchall._zod.def.type === 'never';
}

/** A record key schema that only ever admits strings, so JSON object keys map onto it directly. */
function isStringKey(schema: z.core.$ZodType): boolean {
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return true;
    case 'enum':
      return Object.values(def.entries).every((value) => typeof value === 'string');
    case 'literal':
      return def.values.every((value) => typeof value === 'string');
    case 'union':
      return def.options.every(isStringKey);
    default:
      return false;
  }
}

function capitalize(side: ContractSide): string {
  return side === 'input' ? 'Input' : 'Output';
}

/** "Input field 'options.repo'" for a named field, "Input value at 'items[]'" for an element, or the root. */
function describeSubject(side: ContractSide, path: string): string {
  if (path === '') return `The ${side} schema`;
  return /[\]*]$/.test(path)
    ? `${capitalize(side)} value at '${path}'`
    : `${capitalize(side)} field '${path}'`;
}

function describeObject(side: ContractSide, path: string): string {
  return path === '' ? `The ${side} object` : `${capitalize(side)} object '${path}'`;
}
