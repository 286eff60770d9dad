/** The exported types of one tool: its schema namespace and the stable Input/Output aliases. */
import {toolTypeNames} from './escape-tool-name.ts';
import {convertSchemaDeclarations} from './schema-declarations.ts';
import {SchemaScope} from './schema-scope.ts';
import {isSchemaObject, type JsonSchemaObject, type McpToolSnapshot} from './tool-snapshot.ts';
import {formatJsDoc, inlineDocText} from './ts-source-text.ts';

/** What the server interface needs to know about a tool once its types are emitted. */
export interface EmittedToolTypes {
  /** The declarations, ready to append to the wrapper. */
  text: string;
  /** The exported argument type, `Tool_<escaped>Input`. */
  inputType: string;
  /** The method's return type, `Promise<McpToolResult>` or the typed envelope. */
  resultType: string;
  /** False when the input schema requires no property, so the method argument may be omitted. */
  requiresArguments: boolean;
}

/**
 * Emits `export declare namespace Tool_<escaped>Schema` with private `InputSchema.Input` and `OutputSchema.Output`
 * roots, plus `Tool_<escaped>Input` and, only for a declared output schema, `Tool_<escaped>Output`.
 */
export function emitToolTypes(tool: McpToolSnapshot): EmittedToolTypes {
  const names = toolTypeNames(tool.name);
  const toolName = inlineDocText(tool.name);
  const hasOutput = tool.outputSchema !== undefined;
  let text = `${formatJsDoc([`Schema declarations of the MCP tool \`${toolName}\`.`], '')}`;
  text += `export declare namespace ${names.schema} {\n  namespace InputSchema {\n`;
  text += convertSchemaDeclarations(tool.inputSchema, {rootName: 'Input', indent: '    '});
  text += '  }\n';
  if (hasOutput) {
    text += '  namespace OutputSchema {\n';
    text += convertSchemaDeclarations(tool.outputSchema!, {rootName: 'Output', indent: '    '});
    text += '  }\n';
  }
  text += '}\n\n';
  text += formatJsDoc([`Arguments of the MCP tool \`${toolName}\`.`, tool.title, tool.description], '');
  text += `export type ${names.input} = ${names.schema}.InputSchema.Input;\n`;
  if (hasOutput) {
    text += `\n${formatJsDoc([`\`structuredContent\` of the MCP tool \`${toolName}\`.`, tool.title], '')}`;
    text += `export type ${names.output} = ${names.schema}.OutputSchema.Output;\n`;
  }
  return {
    text,
    inputType: names.input,
    resultType: hasOutput
      ? `Promise<McpToolResult & {structuredContent: ${names.output}}>`
      : 'Promise<McpToolResult>',
    requiresArguments: requiresArguments(tool.inputSchema),
  };
}

// The root object, its allOf members and their $ref targets are looked at. A requirement hidden in anyOf
// branches leaves the argument optional; passing one is still checked against the argument type.
function requiresArguments(root: JsonSchemaObject): boolean {
  const scope = new SchemaScope(root, 'Input');
  const seen = new Set<unknown>();
  const visit = (schema: unknown): boolean => {
    if (!isSchemaObject(schema) || seen.has(schema)) return false;
    seen.add(schema);
    if (Array.isArray(schema.required) && schema.required.length > 0) return true;
    if (typeof schema.$ref === 'string' && visit(scope.lookupRef(schema.$ref))) return true;
    return Array.isArray(schema.allOf) && schema.allOf.some(visit);
  };
  return visit(root);
}
