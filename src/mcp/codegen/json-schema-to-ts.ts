/**
 * JSON Schema (draft 2020-12 and draft-07) to TypeScript type expressions. The types are meant to be useful to
 * workflow authors rather than exact: constraints TypeScript cannot express (formats, ranges, patterns) are left to
 * runtime validation, and constructs without a TypeScript counterpart (`not`, `if`/`then`/`else`, external
 * references) become `unknown`.
 */
import type {SchemaScope} from './schema-scope.ts';
import {isSchemaObject, type JsonSchemaObject} from './tool-snapshot.ts';
import {formatJsDoc, propertyKey} from './ts-source-text.ts';
import {
  atom,
  intersectionOf,
  literalType,
  neverType,
  nullType,
  operand,
  type TypeExpression,
  unionOf,
  unknownType,
} from './type-expression.ts';

/** Where a conversion happens: the scope for `$ref`s and the indentation of multi-line object types. */
export interface ConversionContext {
  scope: SchemaScope;
  indent: string;
  /**
   * True inside object members and array elements. TypeScript resolves those lazily, so a reference there may
   * be recursive; a reference outside them is recorded in `eagerRefs` to detect aliases that would be circular.
   */
  deferred: boolean;
  eagerRefs: Set<string>;
}

const indentStep = '  ';
const refKeywords = ['$ref', '$dynamicRef', '$recursiveRef'] as const;

/** The TypeScript type of the values a schema accepts. */
export function convertSchema(schema: unknown, context: ConversionContext): TypeExpression {
  if (schema === true) return unknownType;
  if (schema === false) return neverType;
  if (!isSchemaObject(schema)) return unknownType;

  const parts: TypeExpression[] = [];
  for (const keyword of refKeywords) {
    const ref = schema[keyword];
    if (typeof ref === 'string') parts.push(convertRef(ref, context));
  }
  if ('const' in schema) parts.push(literalType(schema.const));
  else if (Array.isArray(schema.enum)) parts.push(unionOf(schema.enum.map(literalType)));
  else parts.push(convertTypeKeyword(schema, context));

  if (Array.isArray(schema.allOf))
    parts.push(...schema.allOf.map((member) => convertSchema(member, context)));
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const members = schema[keyword];
    if (Array.isArray(members)) parts.push(unionOf(members.map((member) => convertSchema(member, context))));
  }
  const type = intersectionOf(parts);
  // OpenAPI's `nullable: true`, which some servers still emit.
  return schema.nullable === true && type.text !== 'unknown' ? unionOf([type, nullType]) : type;
}

function convertRef(ref: string, context: ConversionContext): TypeExpression {
  const resolved = context.scope.resolveRef(ref);
  if (resolved === undefined) return unknownType;
  if (!context.deferred) context.eagerRefs.add(resolved.name);
  return atom(resolved.name);
}

function convertTypeKeyword(schema: JsonSchemaObject, context: ConversionContext): TypeExpression {
  const declared = schema.type;
  const types =
    typeof declared === 'string'
      ? [declared]
      : Array.isArray(declared)
        ? declared.filter((item): item is string => typeof item === 'string')
        : inferTypes(schema);
  if (types.length === 0) return Array.isArray(declared) ? neverType : unknownType;
  return unionOf(types.map((type) => convertNamedType(type, schema, context)));
}

// Without `type`, the keywords that only apply to objects or arrays still say what the value is meant to be.
function inferTypes(schema: JsonSchemaObject): string[] {
  const types: string[] = [];
  if (['properties', 'additionalProperties', 'patternProperties', 'required'].some((key) => key in schema)) {
    types.push('object');
  }
  if (['items', 'prefixItems'].some((key) => key in schema)) types.push('array');
  return types;
}

function convertNamedType(
  type: string,
  schema: JsonSchemaObject,
  context: ConversionContext,
): TypeExpression {
  switch (type) {
    case 'string':
      return atom('string');
    case 'number':
    case 'integer':
      return atom('number');
    case 'boolean':
      return atom('boolean');
    case 'null':
      return nullType;
    case 'object':
      return convertObject(schema, context);
    case 'array':
      return convertArray(schema, context);
    default:
      return unknownType;
  }
}

function convertObject(schema: JsonSchemaObject, context: ConversionContext): TypeExpression {
  const memberIndent = context.indent + indentStep;
  const memberContext: ConversionContext = {...context, indent: memberIndent, deferred: true};
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((key): key is string => typeof key === 'string')
      : [],
  );
  const lines: string[] = [];
  const propertyTypes: TypeExpression[] = [];
  let hasOptional = false;
  for (const [key, propertySchema] of Object.entries(properties)) {
    const type = convertSchema(propertySchema, memberContext);
    const optional = !required.has(key);
    hasOptional ||= optional;
    propertyTypes.push(type);
    lines.push(
      `${formatJsDoc(propertyDocs(propertySchema), memberIndent)}${memberIndent}${propertyKey(key)}${optional ? '?' : ''}: ${type.text};`,
    );
  }
  // A required key with no property schema may hold any value.
  for (const key of required) {
    if (Object.hasOwn(properties, key)) continue;
    propertyTypes.push(unknownType);
    lines.push(`${memberIndent}${propertyKey(key)}: unknown;`);
  }

  const index = indexSignatureType(schema, lines.length > 0, memberContext);
  if (index !== undefined) {
    // TypeScript requires every declared property to fit the index signature, so the signature widens to them.
    const widened =
      lines.length === 0
        ? index
        : unionOf([index, ...propertyTypes, ...(hasOptional ? [atom('undefined')] : [])]);
    if (lines.length === 0) return atom(`{[key: string]: ${widened.text}}`);
    lines.push(`${memberIndent}[key: string]: ${widened.text};`);
  }
  if (lines.length === 0) return atom('Record<string, never>');
  return atom(`{\n${lines.join('\n')}\n${context.indent}}`);
}

function indexSignatureType(
  schema: JsonSchemaObject,
  hasProperties: boolean,
  context: ConversionContext,
): TypeExpression | undefined {
  const additional =
    'additionalProperties' in schema ? schema.additionalProperties : schema.unevaluatedProperties;
  const patterns = isSchemaObject(schema.patternProperties) ? Object.values(schema.patternProperties) : [];
  const types = patterns.map((pattern) => convertSchema(pattern, context));
  if (additional === undefined) {
    // Absent additionalProperties formally allows any extra key; an open record is only useful when nothing
    // else describes the object.
    if (!hasProperties && patterns.length === 0) return unknownType;
  } else if (additional !== false) {
    types.push(convertSchema(additional, context));
  }
  return types.length === 0 ? undefined : unionOf(types);
}

function convertArray(schema: JsonSchemaObject, context: ConversionContext): TypeExpression {
  const elements: ConversionContext = {...context, deferred: true};
  // 2020-12 spells a tuple prefixItems + items; draft-07 spells it items: [...] + additionalItems.
  const prefix = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  const rest = Array.isArray(schema.prefixItems)
    ? schema.items
    : Array.isArray(schema.items)
      ? schema.additionalItems
      : schema.items;
  const restType = rest === undefined ? unknownType : convertSchema(rest, elements);
  if (prefix === undefined) return atom(`${operand(restType, 'atom')}[]`);

  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const items = prefix.map((item: unknown, position) => {
    const type = convertSchema(item, elements);
    // Elements past minItems may be missing, exactly like optional tuple elements.
    return position < minItems ? type.text : `${operand(type, 'atom')}?`;
  });
  if (restType.text !== 'never') items.push(`...${operand(restType, 'atom')}[]`);
  return atom(`[${items.join(', ')}]`);
}

/** The JSDoc paragraphs a property or named type carries: its description (or title), default, deprecation. */
export function propertyDocs(schema: unknown): (string | undefined)[] {
  if (!isSchemaObject(schema)) return [];
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const description = text(schema.description) ?? text(schema.title);
  const tags: string[] = [];
  if (schema.default !== undefined) tags.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) tags.push('@deprecated');
  return [description, tags.length > 0 ? tags.join('\n') : undefined];
}
