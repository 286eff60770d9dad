/**
 * `checkWorkflowContract`: every rule of "Signature and schema rules" as build diagnostics. All
 * violations are reported, not only the first, each with the field path it is about.
 */
import type {z} from 'zod';
import {type Diagnostic, isStratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';
import {type ContractSide, checkSchemaNode} from './contract-rules.ts';
import {isWorkflowDefinition} from './define-workflow.ts';
import {exportSideSchema} from './json-schema-export.ts';
import {sidePath} from './schema-path.ts';
import {walkSchema} from './walk-schema.ts';

/** The one top-level input name that is not the workflow's own: it carries invocation configuration. */
export const reservedInputField = 'overrides';

/**
 * Checks a workflow definition (normally the entrypoint's default export) against the contract rules
 * and returns one error diagnostic per violation, with `path` such as `input.options.items[].id`.
 * An empty array means the contract is valid and both JSON Schemas export faithfully.
 *
 * Codes: `STRATOS_CONTRACT_NOT_WORKFLOW`, `STRATOS_CONTRACT_NOT_OBJECT`, `STRATOS_CONTRACT_DESCRIPTION_MISSING`,
 * `STRATOS_CONTRACT_INPUT_NOT_STRICT`, `STRATOS_CONTRACT_UNSUPPORTED_TYPE`, `STRATOS_CONTRACT_UNREPRESENTABLE`,
 * `STRATOS_CONTRACT_RESERVED_FIELD`, `STRATOS_CONTRACT_REF_UNRESOLVED`.
 *
 * @example
 * const diagnostics = checkWorkflowContract(definition);
 * if (hasErrors(diagnostics)) return {ok: false, diagnostics};
 */
export function checkWorkflowContract(definition: unknown): Diagnostic[] {
  if (!isWorkflowDefinition(definition)) {
    return [
      {
        code: 'STRATOS_CONTRACT_NOT_WORKFLOW',
        severity: 'error',
        message:
          'The entrypoint must default-export workflow({input, output, run}) from @stratoscli/stratos.',
      },
    ];
  }
  return [...checkSide(definition.input, 'input'), ...checkSide(definition.output, 'output')];
}

function checkSide(schema: unknown, side: ContractSide): Diagnostic[] {
  const notObject = checkTopLevelObject(schema, side);
  if (notObject !== undefined) return [notObject];
  const root = schema as z.core.$ZodObject;

  const diagnostics: Diagnostic[] = [];
  const complete = walkSchema(root, {
    enter: (node) => checkSchemaNode(node, side, diagnostics),
    lazyFailed: (node, error) => {
      diagnostics.push({
        code: 'STRATOS_CONTRACT_UNREPRESENTABLE',
        severity: 'error',
        message: `The z.lazy() schema at '${sidePath(side, node.path)}' threw when resolved: ${describeError(error)}.`,
        path: sidePath(side, node.path),
      });
    },
  });
  if (!complete) {
    diagnostics.push({
      code: 'STRATOS_CONTRACT_UNREPRESENTABLE',
      severity: 'error',
      message: `The ${side} schema is too large to check; reuse shared parts through z.lazy() or getters.`,
      path: side,
    });
  }

  if (side === 'input' && Object.hasOwn(root._zod.def.shape, reservedInputField)) {
    diagnostics.push({
      code: 'STRATOS_CONTRACT_RESERVED_FIELD',
      severity: 'error',
      message:
        "The input field 'overrides' is reserved for invocation configuration (agent and decision overrides). " +
        'Rename the field.',
      path: `input.${reservedInputField}`,
    });
  }

  // A safety net behind the rules: whatever Zod itself cannot export is a contract error too.
  if (diagnostics.length === 0) diagnostics.push(...checkExport(root, side));
  return diagnostics;
}

function checkTopLevelObject(schema: unknown, side: ContractSide): Diagnostic | undefined {
  const fix = side === 'input' ? 'z.strictObject({...})' : 'z.object({...})';
  const report = (message: string): Diagnostic => ({
    code: 'STRATOS_CONTRACT_NOT_OBJECT',
    severity: 'error',
    message,
    path: side,
  });
  if (!isZod4Schema(schema)) {
    return report(`The ${side} schema is not a Zod 4 schema. Declare ${side} as ${fix} with zod 4.`);
  }
  const type = schema._zod.def.type;
  if (type !== 'object') {
    return report(
      `The ${side} schema is not an object schema (its Zod type is '${type}'). Declare ${side} as ${fix} ` +
        'without wrapping it in optional, nullable, union or similar.',
    );
  }
  return undefined;
}

function checkExport(root: z.core.$ZodType, side: ContractSide): Diagnostic[] {
  try {
    exportSideSchema(root, side);
    return [];
  } catch (error) {
    if (!isStratosError(error)) throw error;
    return [{code: error.code, severity: 'error', message: error.message, path: side}];
  }
}

function isZod4Schema(value: unknown): value is z.core.$ZodTypes {
  if (typeof value !== 'object' || value === null || !('_zod' in value)) return false;
  const internals = (value as {_zod: unknown})._zod;
  if (typeof internals !== 'object' || internals === null) return false;
  const {def, version} = internals as {def?: unknown; version?: {major?: unknown}};
  return (
    typeof def === 'object' &&
    def !== null &&
    typeof (def as {type?: unknown}).type === 'string' &&
    version?.major === 4
  );
}
