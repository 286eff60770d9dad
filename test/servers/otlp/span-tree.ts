import type {ReceivedSpan} from './receiver.ts';

/** A trace as indented span names, each parent followed by its children in start order: easy to assert whole. */
export function renderSpanTree(spans: readonly ReceivedSpan[]): string[] {
  const lines: string[] = [];
  const visit = (parent: string | undefined, depth: number): void => {
    const children = spans
      .filter((s) => s.parentSpanId === parent)
      .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
    for (const child of children) {
      lines.push(`${'  '.repeat(depth)}${child.name}`);
      visit(child.spanId, depth + 1);
    }
  };
  visit(undefined, 0);
  return lines;
}
