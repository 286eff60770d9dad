/** TypeScript type expressions as text, with just enough precedence tracking to place parentheses correctly. */
import {propertyKey, quoteString} from './ts-source-text.ts';

/** How tightly an expression binds: a union must be parenthesized inside an intersection or before `[]`. */
export type TypePrecedence = 'union' | 'intersection' | 'atom';

/** A type expression as generated text. */
export interface TypeExpression {
  text: string;
  precedence: TypePrecedence;
}

/** A type expression that needs no parentheses anywhere. */
export function atom(text: string): TypeExpression {
  return {text, precedence: 'atom'};
}

export const unknownType = atom('unknown');
export const neverType = atom('never');
export const nullType = atom('null');

/** `T` wrapped in parentheses unless it already binds at least as tightly as `minimum`. */
export function operand(type: TypeExpression, minimum: TypePrecedence): string {
  const rank = {union: 0, intersection: 1, atom: 2};
  return rank[type.precedence] >= rank[minimum] ? type.text : `(${type.text})`;
}

/** `A | B | ...`: `unknown` absorbs everything, `never` disappears, duplicates are dropped. */
export function unionOf(members: readonly TypeExpression[]): TypeExpression {
  const texts = new Set<string>();
  for (const member of members) {
    if (member.text === 'unknown') return unknownType;
    if (member.text !== 'never') texts.add(member.text);
  }
  if (texts.size === 0) return neverType;
  if (texts.size === 1) return members.find((member) => texts.has(member.text))!;
  return {text: [...texts].join(' | '), precedence: 'union'};
}

/** `A & B & ...`: `unknown` disappears, `never` absorbs everything, duplicates are dropped. */
export function intersectionOf(members: readonly TypeExpression[]): TypeExpression {
  const kept = new Map<string, TypeExpression>();
  for (const member of members) {
    if (member.text === 'never') return neverType;
    if (member.text !== 'unknown') kept.set(member.text, member);
  }
  if (kept.size === 0) return unknownType;
  if (kept.size === 1) return [...kept.values()][0]!;
  return {
    text: [...kept.values()].map((member) => operand(member, 'intersection')).join(' & '),
    precedence: 'intersection',
  };
}

/** The literal type of a JSON value, as `const` and `enum` use it. */
export function literalType(value: unknown): TypeExpression {
  if (value === null) return nullType;
  if (typeof value === 'string') return atom(quoteString(value));
  if (typeof value === 'boolean') return atom(String(value));
  if (typeof value === 'number') return Number.isFinite(value) ? atom(JSON.stringify(value)) : atom('number');
  if (Array.isArray(value)) return atom(`[${value.map((item) => literalType(item).text).join(', ')}]`);
  if (typeof value === 'object') {
    const members = Object.entries(value).map(
      ([key, item]) => `${propertyKey(key)}: ${literalType(item).text}`,
    );
    return atom(members.length === 0 ? 'Record<string, never>' : `{${members.join('; ')}}`);
  }
  return unknownType;
}
