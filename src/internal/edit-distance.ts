/**
 * "Did you mean": the edit distance between two words (insertions, deletions, substitutions and swaps of two
 * neighbouring characters, each costing 1: the optimal string alignment form of Damerau-Levenshtein) and the
 * closest candidates to a mistyped word.
 */

/** The number of single-character edits (a swap of neighbours counts as one) that turn `a` into `b`. */
export function measureEditDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const distance: number[] = new Array(rows * columns).fill(0);
  const at = (i: number, j: number) => distance[i * columns + j]!;
  for (let i = 0; i < rows; i++) distance[i * columns] = i;
  for (let j = 0; j < columns; j++) distance[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      distance[i * columns + j] = best;
    }
  }
  return at(rows - 1, columns - 1);
}

/**
 * The candidates close enough to `word` to be what was meant, closest first (at most `limit`, default 3): within
 * one edit for short words, and about a third of the word's length for longer ones. Case is ignored.
 *
 * @example suggestClosest('rum', ['run', 'list']) // ['run']
 */
export function suggestClosest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const typed = word.toLowerCase();
  const threshold = Math.max(1, Math.floor(typed.length / 3));
  const scored: {candidate: string; distance: number}[] = [];
  for (const candidate of new Set(candidates)) {
    const distance = measureEditDistance(typed, candidate.toLowerCase());
    if (distance <= threshold && distance < Math.max(typed.length, candidate.length))
      scored.push({candidate, distance});
  }
  scored.sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate));
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** ` Did you mean 'x'?` or ` Did you mean 'x' or 'y'?` for a message, or '' when there is nothing to suggest. */
export function formatSuggestions(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  const quoted = suggestions.map((s) => `'${s}'`);
  const last = quoted.pop()!;
  return ` Did you mean ${quoted.length === 0 ? last : `${quoted.join(', ')} or ${last}`}?`;
}
