/**
 * One schema document (a tool's input or output schema) and the named types its `$ref`s need. Every local reference
 * becomes a named type inside the same scope namespace, which is what makes recursive schemas expressible.
 */
import {escapeToolName} from './escape-tool-name.ts';
import {isSchemaObject, type JsonSchema} from './tool-snapshot.ts';

/** A named type waiting to be declared in the scope. */
export interface NamedSchema {
  name: string;
  schema: JsonSchema;
}

/** A reference to a named type; `undefined` from {@link SchemaScope.resolveRef} means the target is unknown. */
export interface ResolvedRef {
  name: string;
}

/**
 * Tracks a schema document and hands out deterministic type names for the subschemas its `$ref`s point to:
 * `#` is the root, `#/$defs/Foo` is `Def_Foo`, `#/definitions/Foo` is `Definition_Foo`, any other pointer is
 * `Ref_<escaped pointer>` and an anchor `#foo` is `Anchor_foo`. Names are escaped like tool names, so they never
 * collide with each other or with the `Input`/`Output` roots.
 */
export class SchemaScope {
  readonly root: JsonSchema;
  readonly rootName: string;
  readonly #names = new Map<string, string>();
  readonly #pending: NamedSchema[] = [];
  readonly #baseUri: string | undefined;
  #anchors: Map<string, JsonSchema> | undefined;

  constructor(root: JsonSchema, rootName: string) {
    this.root = root;
    this.rootName = rootName;
    const id = isSchemaObject(root) ? root.$id : undefined;
    this.#baseUri = typeof id === 'string' && id !== '' ? id.replace(/#.*$/s, '') : undefined;
  }

  /** The type name a `$ref` value stands for, queueing its declaration the first time it is seen. */
  resolveRef(ref: string): ResolvedRef | undefined {
    const target = this.#locate(ref);
    if (target === undefined) return undefined;
    if (target.key === undefined) return {name: this.rootName};
    const known = this.#names.get(target.key);
    if (known !== undefined) return {name: known};
    this.#names.set(target.key, target.name);
    this.#pending.push({name: target.name, schema: target.schema});
    return {name: target.name};
  }

  /** The subschema a `$ref` value points to, without declaring anything. */
  lookupRef(ref: string): JsonSchema | undefined {
    return this.#locate(ref)?.schema;
  }

  /** Takes the named types queued since the last call, in the order they were first referenced. */
  takePending(): NamedSchema[] {
    return this.#pending.splice(0);
  }

  /** The fragment of a reference into this document, or undefined for a reference to another document. */
  #localFragment(ref: string): string | undefined {
    let local = ref;
    if (this.#baseUri !== undefined && ref.startsWith(this.#baseUri)) local = ref.slice(this.#baseUri.length);
    if (local === '') return '';
    if (!local.startsWith('#')) return undefined;
    try {
      return decodeURIComponent(local.slice(1));
    } catch {
      return local.slice(1);
    }
  }

  // `key` identifies the target however the reference spells it; undefined key means the document root.
  #locate(ref: string): {key: string | undefined; name: string; schema: JsonSchema} | undefined {
    const fragment = this.#localFragment(ref);
    if (fragment === undefined) return undefined;
    if (fragment === '') return {key: undefined, name: this.rootName, schema: this.root};
    if (!fragment.startsWith('/')) {
      this.#anchors ??= collectAnchors(this.root);
      const schema = this.#anchors.get(fragment);
      if (schema === undefined) return undefined;
      return {key: `anchor:${fragment}`, name: `Anchor_${escapeToolName(fragment)}`, schema};
    }
    const tokens = fragment
      .slice(1)
      .split('/')
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const schema = walkPointer(this.root, tokens);
    if (schema === undefined) return undefined;
    const [container, entry] = tokens;
    const name =
      tokens.length === 2 && container === '$defs'
        ? `Def_${escapeToolName(entry!)}`
        : tokens.length === 2 && container === 'definitions'
          ? `Definition_${escapeToolName(entry!)}`
          : `Ref_${escapeToolName(fragment)}`;
    return {key: `pointer:${JSON.stringify(tokens)}`, name, schema};
  }
}

function walkPointer(root: JsonSchema, tokens: readonly string[]): JsonSchema | undefined {
  let current: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      current = /^(0|[1-9][0-9]*)$/.test(token) ? current[Number(token)] : undefined;
    } else if (isSchemaObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return typeof current === 'boolean' || isSchemaObject(current) ? current : undefined;
}

// Anchors are rare, so the document is walked only when a reference actually uses one.
function collectAnchors(root: JsonSchema): Map<string, JsonSchema> {
  const anchors = new Map<string, JsonSchema>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (!isSchemaObject(node)) continue;
    for (const keyword of ['$anchor', '$dynamicAnchor'] as const) {
      const anchor = node[keyword];
      if (typeof anchor === 'string' && !anchors.has(anchor)) anchors.set(anchor, node);
    }
    // Draft-07 spells an anchor as a fragment-only $id.
    const id = node.$id;
    if (typeof id === 'string' && id.startsWith('#') && !anchors.has(id.slice(1)))
      anchors.set(id.slice(1), node);
    stack.push(...Object.values(node));
  }
  return anchors;
}
