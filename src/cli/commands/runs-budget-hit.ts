/**
 * How `stratos runs show` marks the call that hit a budget: its `budget.exceeded` event in the tree says what was
 * spent of which budget and whether the turn was stopped or the call not sent, and the breakdown row of that agent
 * or decision is marked (`isBudgetHitRow` in ./runs-cost.ts).
 */
import type {RunTreeNode} from '../../api/runs.ts';
import type {CommandContext} from './command.ts';
import {formatUsd} from './runs-cost.ts';

/** The tree line of a `budget.exceeded` event, or undefined for any other node. */
export function formatBudgetEvent(node: RunTreeNode, context: CommandContext): string | undefined {
  if (node.kind !== 'event' || node.name !== 'budget.exceeded') return undefined;
  const attributes = node.attributes ?? {};
  const unit = attributes['stratos.budget.unit'];
  const figure = (value: unknown) =>
    typeof value !== 'number' ? '?' : unit === 'usd' ? formatUsd(value) : `${value} tokens`;
  const outcome = attributes['stratos.budget.stopped'] === true ? 'turn stopped' : 'not sent';
  const whose =
    attributes['stratos.budget.native'] === true
      ? "the harness's own cap"
      : `workflow ${String(attributes['stratos.budget.workflow'])}`;
  return context.paint(
    `budget exceeded: ${figure(attributes['stratos.budget.spent'])} of ${figure(attributes['stratos.budget.limit'])} (${whose}), ${outcome}`,
    'red',
  );
}

/** The agent or decision node of the call that first hit a budget: the parent of the earliest such event. */
export function findBudgetHit(tree: readonly RunTreeNode[]): RunTreeNode | undefined {
  let first: {node: RunTreeNode; time: string} | undefined;
  const walk = (node: RunTreeNode) => {
    for (const child of node.children) {
      const time = child.startedAt ?? '';
      if (
        child.kind === 'event' &&
        child.name === 'budget.exceeded' &&
        (first === undefined || time < first.time)
      )
        first = {node, time};
      walk(child);
    }
  };
  for (const node of tree) walk(node);
  return first?.node;
}
