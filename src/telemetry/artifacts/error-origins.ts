/**
 * Where an error happened. An error that ends a decision usually ends its workflow too, recorded again on every
 * span it passed through. Readers (`stratos runs show`, the runs page) show it once, on the span where it was
 * recorded first (the deepest), and mark each ancestor that only passed it on with `errorFrom`.
 */

/** The identity of a recorded error: two spans with equal keys recorded the same error. */
export function errorKey(error: {code?: string; type?: string; message: string}): string {
  return `${error.code ?? error.type ?? ''}\u0000${error.message}`;
}

interface ErrorNode {
  spanId: string;
  error?: {code?: string; type?: string; message: string};
  /** The span id of the descendant where this node's error was recorded first. */
  errorFrom?: string;
  children: ErrorNode[];
}

/** Sets `errorFrom` on every node whose error a descendant recorded already. */
export function markErrorOrigins(roots: readonly ErrorNode[]): void {
  for (const root of roots) visit(root);
}

/** The errors recorded first in `node`'s subtree, by key, with the span that recorded each. */
function visit(node: ErrorNode): Map<string, string> {
  const origins = new Map<string, string>();
  for (const child of node.children) {
    for (const [key, spanId] of visit(child)) if (!origins.has(key)) origins.set(key, spanId);
  }
  if (node.error !== undefined) {
    const key = errorKey(node.error);
    const from = origins.get(key);
    if (from === undefined) origins.set(key, node.spanId);
    else node.errorFrom = from;
  }
  return origins;
}
