/**
 * A depth-first walk over a Zod 4 schema tree through its `_zod.def` internals, tracking the field path.
 * Recursive schemas (getters or `z.lazy`) are walked once per path: a schema already on the current
 * branch is not entered again, so the walk always ends. Shared, non-recursive parts are walked at
 * each place they are used, so that every finding names a real path.
 */
import type {z} from 'zod';
import {appendAnyKey, appendIndex, appendKey} from './schema-path.ts';

/** One schema met during a walk. */
export interface SchemaNode {
  schema: z.core.$ZodTypes;
  /** Path from the side's root object, in `options.items[].id` notation; `''` is the root. */
  path: string;
  /** The property name when this schema is declared directly as an object field, else `undefined`. */
  field: string | undefined;
}

export interface SchemaVisitor {
  /** Called for every schema, parents before children. */
  enter(node: SchemaNode): void;
  /** Called when a lazy schema's getter throws, so the walk cannot see what it stands for. */
  lazyFailed(node: SchemaNode, error: unknown): void;
}

/** Far above any hand-written contract; only a schema graph with huge sharing reaches it. */
const maxNodes = 20_000;

/** Walks `root` and its descendants; returns false when the walk stopped early at the node budget. */
export function walkSchema(root: z.core.$ZodType, visitor: SchemaVisitor): boolean {
  // Keyed by def, not schema: `.describe()` and `.meta()` clone a schema but share its def, and a
  // recursive reference often points at the undescribed original.
  const onBranch = new Set<z.core.$ZodTypeDef>();
  let budget = maxNodes;

  const visit = (schema: z.core.$ZodType, path: string, field: string | undefined): boolean => {
    const def = schema._zod.def;
    if (onBranch.has(def)) return true;
    if (budget-- <= 0) return false;
    const node: SchemaNode = {schema: schema as z.core.$ZodTypes, path, field};
    visitor.enter(node);
    onBranch.add(def);
    try {
      for (const child of childrenOf(node, visitor)) {
        if (!visit(child.schema, child.path, child.field)) return false;
      }
      return true;
    } finally {
      onBranch.delete(def);
    }
  };

  return visit(root, '', undefined);
}

interface Child {
  schema: z.core.$ZodType;
  path: string;
  field: string | undefined;
}

function childrenOf(node: SchemaNode, visitor: SchemaVisitor): Child[] {
  const {path} = node;
  const def = node.schema._zod.def;
  const same = (schema: z.core.$ZodType): Child => ({schema, path, field: undefined});
  switch (def.type) {
    case 'object': {
      const children: Child[] = [];
      // Reading the shape runs authors' getters; that is how recursive objects are declared.
      for (const [key, schema] of Object.entries(def.shape)) {
        children.push({schema, path: appendKey(path, key), field: key});
      }
      if (def.catchall !== undefined && def.catchall._zod.def.type !== 'never') {
        children.push({schema: def.catchall, path: appendAnyKey(path), field: undefined});
      }
      return children;
    }
    case 'array':
      return [{schema: def.element, path: appendIndex(path), field: undefined}];
    case 'tuple': {
      const children = def.items.map((schema, index) => ({
        schema,
        path: appendIndex(path, index),
        field: undefined,
      }));
      if (def.rest !== null) children.push({schema: def.rest, path: appendIndex(path), field: undefined});
      return children;
    }
    case 'record':
      // The key schema is checked by the contract rules as a key, not walked as a value.
      return [{schema: def.valueType, path: appendAnyKey(path), field: undefined}];
    case 'union':
      return def.options.map(same);
    case 'intersection':
      return [same(def.left), same(def.right)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
    case 'success':
      return [same(def.innerType)];
    case 'pipe':
      return [same(def.in), same(def.out)];
    case 'lazy':
      try {
        return [same((node.schema as z.core.$ZodLazy)._zod.innerType)];
      } catch (error) {
        visitor.lazyFailed(node, error);
        return [];
      }
    default:
      // Leaves, and unsupported containers (map, set, promise, function) whose contents do not matter.
      return [];
  }
}
