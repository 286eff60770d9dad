/**
 * Where each top-level value of a JSON object starts in generated text: the probabilities of an answer are read
 * from the log-probabilities of the tokens at that offset, so the offset must be exact (string escapes, nested
 * values and whitespace included). Returns undefined for text that is not one JSON object.
 */

/** Character offset of each top-level field's value, by field name, for the object starting at `start`. */
export function findJsonValueOffsets(text: string, start = 0): Map<string, number> | undefined {
  let i = skipSpace(text, start);
  if (text[i] !== '{') return undefined;
  i = skipSpace(text, i + 1);
  const offsets = new Map<string, number>();
  if (text[i] === '}') return offsets;
  for (;;) {
    if (text[i] !== '"') return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd === undefined) return undefined;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return undefined;
    }
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') return undefined;
    i = skipSpace(text, i + 1);
    offsets.set(key as string, i);
    const valueEnd = skipValue(text, i);
    if (valueEnd === undefined) return undefined;
    i = skipSpace(text, valueEnd);
    if (text[i] === ',') {
      i = skipSpace(text, i + 1);
      continue;
    }
    return text[i] === '}' ? offsets : undefined;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t'))
    i++;
  return i;
}

/** The index after the closing quote of the string starting at `i`. */
function skipString(text: string, i: number): number | undefined {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return undefined;
}

function skipValue(text: string, i: number): number | undefined {
  const first = text[i];
  if (first === '"') return skipString(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (c === '"') {
        const end = skipString(text, j);
        if (end === undefined) return undefined;
        j = end - 1;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return undefined;
  }
  const match = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
  return match === null ? undefined : i + match[0].length;
}
