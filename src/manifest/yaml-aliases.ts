/**
 * YAML anchors and aliases, bounded and followed in linear time. The `yaml` library finds an alias's anchor by
 * walking the whole document each time (and again while counting for `maxAliasCount`), so a file with thousands
 * of aliases costs time quadratic in its size; an alias bomb ("billion laughs") costs far more once expanded.
 * Every YAML file Stratos reads (workflow.yaml, test cases) goes through {@link indexAliases} once instead: one
 * walk maps each alias to its anchor, counts the aliases and what they stand for, and stops at the first limit.
 */
import {
  type Alias,
  type Document,
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  type Node,
  type Pair,
  visit,
} from 'yaml';

/** A YAML file may hold at most this many aliases (`*name`); real files hold a handful. */
export const MAX_YAML_ALIASES = 1_000;

/**
 * The aliases of a YAML file may stand for at most this many values in all: each alias counts the values
 * (scalars, mappings, lists) of what it expands to, aliases inside counted as expanded. So expanding the whole
 * file adds at most this many values to what is written.
 */
export const MAX_YAML_ALIAS_VALUES = 10_000;

/** Why a file's aliases cannot be followed, located at the alias where it was found. */
export type AliasProblem =
  | {kind: 'unresolved'; alias: Alias}
  | {kind: 'too-many'; alias: Alias}
  | {kind: 'too-large'; alias: Alias}
  | {kind: 'recursive'; alias: Alias};

/** The aliases of one parsed document: what each stands for, and the problems found. */
export interface AliasIndex {
  /** Empty when every alias resolves within the limits; otherwise the first limit passed, or each unresolved one. */
  problems: AliasProblem[];
  /** The anchored node an alias stands for (undefined when it has none); other nodes are returned as they are. */
  resolve(node: unknown): Node | undefined;
  /** The plain JavaScript value of a node, aliases followed through the index. Only for a file without problems. */
  toJS(node: unknown): unknown;
}

class AliasLimit extends Error {
  readonly problem: AliasProblem;
  constructor(problem: AliasProblem) {
    super(problem.kind);
    this.problem = problem;
  }
}

/**
 * Maps every alias of `doc` to its anchor (the last one of that name before it, as YAML defines) and checks the
 * limits, in time linear in the document's size.
 *
 * @example
 * const aliases = indexAliases(parseDocument(text));
 * if (aliases.problems.length === 0) value = aliases.toJS(doc.contents);
 */
export function indexAliases(doc: Document): AliasIndex {
  const targets = new Map<Alias, Node>();
  const problems: AliasProblem[] = [];
  const anchors = new Map<string, Node>();
  let count = 0;
  visit(doc, {
    Node(_, node) {
      if (isAlias(node)) {
        count++;
        if (count > MAX_YAML_ALIASES) {
          problems.push({kind: 'too-many', alias: node});
          return visit.BREAK;
        }
        const target = anchors.get(node.source);
        if (target === undefined) problems.push({kind: 'unresolved', alias: node});
        else targets.set(node, target);
      } else if ((isScalar(node) || isCollection(node)) && node.anchor !== undefined) {
        anchors.set(node.anchor, node);
      }
      return undefined;
    },
  });
  const resolve = (node: unknown): Node | undefined => {
    if (isAlias(node)) return targets.get(node);
    return isScalar(node) || isCollection(node) ? node : undefined;
  };
  if (problems.length === 0 && count > 0) {
    try {
      measureExpansion(doc.contents, targets);
    } catch (error) {
      if (!(error instanceof AliasLimit)) throw error;
      problems.push(error.problem);
    }
  }
  const converted = new Map<Node, unknown>();
  const toJS = (node: unknown): unknown => {
    if (isAlias(node)) {
      const target = targets.get(node);
      if (target === undefined) return undefined;
      // Shared like the library shares anchored values; the expansion limit bounds how often it is referenced.
      if (!converted.has(target)) converted.set(target, toJS(target));
      return converted.get(target);
    }
    if (isScalar(node)) return node.toJS(doc);
    if (!isCollection(node)) return node === null || node === undefined ? null : undefined;
    if (!isMap(node)) return node.items.map((item) => (isPair(item) ? pairsToJS([item]) : toJS(item)));
    return pairsToJS(node.items);
  };
  const pairsToJS = (pairs: readonly Pair[]): Record<string, unknown> => {
    const object: Record<string, unknown> = {};
    for (const pair of pairs) {
      const key = toJS(pair.key);
      const name =
        key === null || key === undefined ? '' : typeof key === 'object' ? JSON.stringify(key) : String(key);
      // defineProperty: a key named __proto__ is data, never the prototype.
      const value = toJS(pair.value);
      Object.defineProperty(object, name, {value, writable: true, enumerable: true, configurable: true});
    }
    return object;
  };
  return {problems, resolve, toJS};
}

/**
 * Sums what every alias stands for, throwing AliasLimit at the alias that passes MAX_YAML_ALIAS_VALUES or that
 * sits inside its own anchor. Each collection is measured once: an anchor comes before its aliases in document
 * order, so by the time an alias is met its anchor is either measured or still open (an ancestor: recursion).
 */
function measureExpansion(root: unknown, targets: Map<Alias, Node>): void {
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  let aliasValues = 0;
  const size = (node: unknown): number => {
    if (isAlias(node)) {
      const target = targets.get(node) as Node;
      if (open.has(target)) throw new AliasLimit({kind: 'recursive', alias: node});
      const values = size(target);
      aliasValues += values;
      if (aliasValues > MAX_YAML_ALIAS_VALUES) throw new AliasLimit({kind: 'too-large', alias: node});
      return values;
    }
    if (!isCollection(node)) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    open.add(node);
    let total = 1;
    for (const item of node.items) total += isPair(item) ? size(item.key) + size(item.value) : size(item);
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  size(root);
}
