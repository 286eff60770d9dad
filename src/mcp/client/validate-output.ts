/**
 * Validation of `structuredContent` against the output schema of the wrapper's discovery snapshot (the same
 * schema its types came from), with no runtime discovery. Validators are compiled once per schema object.
 */
import {createRequire} from 'node:module';
import {StratosError} from '../../errors/index.ts';
import type {JsonSchemaObject} from '../codegen/index.ts';

interface AjvValidator {
  (value: unknown): boolean;
  errors?: {instancePath: string; message?: string}[] | null;
}
interface AjvEngine {
  compile(schema: object): AjvValidator;
}

const require = createRequire(import.meta.url);
const engines = new Map<string, AjvEngine>();
const validators = new WeakMap<JsonSchemaObject, AjvValidator>();

// MCP schemas default to draft 2020-12; draft-07/06 schemas declare themselves and get the classic engine.
function engineFor(schema: JsonSchemaObject): AjvEngine {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const dialect = /draft-0[67]/.test(declared)
    ? 'draft-07'
    : /2019-09/.test(declared)
      ? '2019-09'
      : '2020-12';
  let engine = engines.get(dialect);
  if (engine === undefined) {
    const module =
      dialect === 'draft-07'
        ? require('ajv')
        : dialect === '2019-09'
          ? require('ajv/dist/2019')
          : require('ajv/dist/2020');
    const Engine = (module.default ?? module) as new (options: object) => AjvEngine;
    // Formats are annotations in 2020-12; strict mode would reject the vendor keywords servers use.
    engine = new Engine({strict: false, allErrors: true, validateSchema: false, validateFormats: false});
    engines.set(dialect, engine);
  }
  return engine;
}

/**
 * Throws unless `structuredContent` is present and conforms to `schema`.
 *
 * @throws StratosError `STRATOS_MCP_OUTPUT_MISSING`, `STRATOS_MCP_OUTPUT_INVALID`.
 */
export function assertStructuredContent(
  server: string,
  tool: string,
  schema: JsonSchemaObject,
  structuredContent: unknown,
): void {
  if (structuredContent === undefined) {
    throw new StratosError(
      'STRATOS_MCP_OUTPUT_MISSING',
      `The MCP tool '${tool}' of server '${server}' declares an output schema but returned no structuredContent.`,
      {details: {server, tool}},
    );
  }
  let validate = validators.get(schema);
  if (validate === undefined) {
    try {
      validate = engineFor(schema).compile(schema);
    } catch (error) {
      throw new StratosError(
        'STRATOS_MCP_OUTPUT_INVALID',
        `The output schema of the MCP tool '${tool}' of server '${server}' cannot be compiled: ${(error as Error).message}`,
        {cause: error, details: {server, tool}},
      );
    }
    validators.set(schema, validate);
  }
  if (validate(structuredContent)) return;
  const issues = (validate.errors ?? []).map((e) => ({
    path: e.instancePath || '/',
    message: e.message ?? 'invalid',
  }));
  throw new StratosError(
    'STRATOS_MCP_OUTPUT_INVALID',
    `The structuredContent of the MCP tool '${tool}' of server '${server}' does not match its output schema: ` +
      issues.map((issue) => `${issue.path} ${issue.message}`).join('; '),
    {details: {server, tool, issues}},
  );
}
