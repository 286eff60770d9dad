/** A whole schema document as type aliases: its root and every named type its references reach. */
import {convertSchema, propertyDocs} from './json-schema-to-ts.ts';
import {SchemaScope} from './schema-scope.ts';
import type {JsonSchema} from './tool-snapshot.ts';
import {formatJsDoc} from './ts-source-text.ts';
import type {TypeExpression} from './type-expression.ts';

/** Options of {@link convertSchemaDeclarations}. */
export interface SchemaDeclarationsOptions {
  /** The name of the root alias, such as `Input`. */
  rootName: string;
  /** Indentation of every declaration line. Default: none. */
  indent?: string;
}

interface Declaration {
  name: string;
  type: TypeExpression;
  docs: (string | undefined)[];
  eagerRefs: Set<string>;
}

/**
 * Converts a JSON Schema into `type` aliases: `<rootName>` for the document itself, then one alias per referenced
 * subschema (`Def_*`, `Definition_*`, `Ref_*`, `Anchor_*`) in first-reference order. The aliases are meant for a
 * namespace body, where they cannot collide with anything outside.
 *
 * @example
 * convertSchemaDeclarations({type: 'array', items: {type: 'string'}}, {rootName: 'Output'});
 * // 'type Output = string[];\n'
 */
export function convertSchemaDeclarations(schema: JsonSchema, options: SchemaDeclarationsOptions): string {
  const indent = options.indent ?? '';
  const scope = new SchemaScope(schema, options.rootName);
  const declarations: Declaration[] = [];
  const declare = (name: string, subschema: unknown) => {
    const eagerRefs = new Set<string>();
    const type = convertSchema(subschema, {scope, indent, deferred: false, eagerRefs});
    declarations.push({name, type, docs: propertyDocs(subschema), eagerRefs});
  };
  declare(options.rootName, schema);
  for (let pending = scope.takePending(); pending.length > 0; pending = scope.takePending()) {
    for (const named of pending) declare(named.name, named.schema);
  }

  const circular = findCircularAliases(declarations);
  let text = '';
  for (const declaration of declarations) {
    // An alias that is its own union or intersection member is an error in TypeScript; such a schema constrains
    // nothing TypeScript can state, so it degrades to unknown.
    const typeText = circular.has(declaration.name) ? 'unknown' : declaration.type.text;
    text += `${formatJsDoc(declaration.docs, indent)}${indent}type ${declaration.name} = ${typeText};\n`;
  }
  return text;
}

/** The aliases on a cycle of references that TypeScript would resolve eagerly (Tarjan's strongly connected components). */
function findCircularAliases(declarations: readonly Declaration[]): Set<string> {
  const edges = new Map(declarations.map((declaration) => [declaration.name, declaration.eagerRefs]));
  const circular = new Set<string>();
  const order = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();

  const visit = (name: string) => {
    order.set(name, order.size);
    lowLink.set(name, order.get(name)!);
    stack.push(name);
    onStack.add(name);
    for (const next of edges.get(name) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowLink.set(name, Math.min(lowLink.get(name)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(name, Math.min(lowLink.get(name)!, order.get(next)!));
      }
    }
    if (lowLink.get(name) !== order.get(name)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== name);
    if (component.length > 1 || edges.get(name)?.has(name) === true) {
      for (const item of component) circular.add(item);
    }
  };
  for (const declaration of declarations) {
    if (!order.has(declaration.name)) visit(declaration.name);
  }
  return circular;
}
