/**
 * Probabilities of a constrained answer from token log-probabilities (docs/structured-decisions.md, "How probabilities are
 * computed"). Each option of a question is one JSON literal (`"A"`, `"3"`, `true`) that the response schema
 * allows at the question's field. Walking the generated tokens from the one that covers the start of that field's
 * value, every top candidate token whose text is consistent with exactly one still-possible option adds
 * P(path so far) * P(candidate) to that option; the walk continues through the generated token while it is
 * consistent with several options (a token that is only `"`) and stops at the first token that decides the option.
 * Candidates consistent with no option are outside the contract and left out; the masses are then normalised over
 * the options, which is the model's distribution conditioned on giving an allowed answer.
 */

export interface TokenCandidate {
  token: string;
  logprob: number;
}

export interface GeneratedToken extends TokenCandidate {
  top_logprobs?: TokenCandidate[];
}

export type ProbabilityProblem =
  | {kind: 'no-candidates'; message: string}
  | {kind: 'no-mass'; message: string}
  | {kind: 'misaligned'; message: string};

export type ProbabilityResult =
  | {ok: true; probabilities: number[]}
  | {ok: false; problem: ProbabilityProblem};

/**
 * Option probabilities for the answer whose value starts at `offset` of `text` (the concatenated token texts).
 * `literals[k]` is the exact JSON text of option k.
 */
export function computeOptionProbabilities(
  tokens: readonly GeneratedToken[],
  text: string,
  offset: number,
  literals: readonly string[],
): ProbabilityResult {
  const starts: number[] = [];
  let position = 0;
  for (const token of tokens) {
    starts.push(position);
    position += token.token.length;
  }
  let first = -1;
  for (let j = 0; j < tokens.length; j++) {
    if (starts[j]! <= offset && offset < starts[j]! + tokens[j]!.token.length) {
      first = j;
      break;
    }
  }
  if (first === -1) {
    return {ok: false, problem: {kind: 'misaligned', message: 'no generated token covers the answer'}};
  }
  const mass = literals.map(() => 0);
  let path = 1;
  for (let j = first; j < tokens.length; j++) {
    const token = tokens[j]!;
    const start = starts[j]!;
    const candidates = token.top_logprobs;
    if (candidates === undefined || candidates.length === 0) {
      return {
        ok: false,
        problem: {kind: 'no-candidates', message: 'the tokens of the answer carry no top_logprobs'},
      };
    }
    // Text of this token before the value (the `":` of `":"A`) and the value characters already generated.
    const before = start < offset ? text.slice(start, offset) : '';
    const consumed = text.slice(offset, Math.max(offset, start));
    const alive = literals.flatMap((literal, k) => (literal.startsWith(consumed) ? [k] : []));
    const matching = (rest: string) => alive.filter((k) => consistent(consumed + rest, literals[k]!));
    const pool = candidates.some((c) => c.token === token.token)
      ? candidates
      : [...candidates, {token: token.token, logprob: token.logprob}];
    for (const candidate of pool) {
      if (!Number.isFinite(candidate.logprob)) continue;
      const rest = afterPrefix(candidate.token, before);
      if (rest === undefined || rest === '') continue;
      const options = matching(rest);
      if (options.length === 1) mass[options[0]!]! += path * Math.exp(candidate.logprob);
    }
    if (matching(afterPrefix(token.token, before) ?? '').length <= 1) break;
    path *= Math.exp(token.logprob);
  }
  const total = mass.reduce((sum, value) => sum + value, 0);
  if (!(total > 0)) {
    return {
      ok: false,
      problem: {kind: 'no-mass', message: 'no candidate token at the answer selects one of the options'},
    };
  }
  return {ok: true, probabilities: mass.map((value) => value / total)};
}

/**
 * The part of a candidate token after the JSON text that precedes the value in this token (`":` of `":"A`),
 * ignoring JSON whitespace on both sides, since the grammar allows whitespace there: `"C` and ` "` both follow
 * `: `. Undefined when the candidate is different structure or ends before the value.
 */
function afterPrefix(candidate: string, before: string): string | undefined {
  let i = 0;
  let k = 0;
  while (k < before.length) {
    if (isSpace(before[k]!)) k++;
    else if (i < candidate.length && isSpace(candidate[i]!)) i++;
    else if (i < candidate.length && candidate[i] === before[k]) {
      i++;
      k++;
    } else return undefined;
  }
  while (i < candidate.length && isSpace(candidate[i]!)) i++;
  return candidate.slice(i);
}

function isSpace(char: string): boolean {
  return char === ' ' || char === '\n' || char === '\r' || char === '\t';
}

/** Whether text generated so far can still be (or already is, followed by more JSON) the literal. */
function consistent(generated: string, literal: string): boolean {
  return literal.startsWith(generated) || generated.startsWith(literal);
}
