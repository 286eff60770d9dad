/** Terminal styling that honours NO_COLOR and plain pipes: color only on a terminal, never in --json. */

const codes = {red: [31, 39], yellow: [33, 39], green: [32, 39], dim: [2, 22], bold: [1, 22]} as const;

export type Style = keyof typeof codes;

export function createPainter(
  stream: {isTTY?: boolean},
  env: NodeJS.ProcessEnv,
): (text: string, style: Style) => string {
  const enabled =
    stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb';
  return (text, style) => (enabled ? `\u001b[${codes[style][0]}m${text}\u001b[${codes[style][1]}m` : text);
}

/** The styling sequences createPainter writes; every other control character is escaped by escapeControls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ownSequence = /^\u001b\[(?:1|2|22|31|32|33|39)m/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Readable text with control characters shown as `\x1b`-style escapes (tab and line feed stay), so a hostile
 * description or folder name cannot clear or rewrite the terminal. Stratos's own color codes are kept.
 */
export function escapeControls(text: string): string {
  return text.replace(control, (char, offset: number) => {
    if (char === '\u001b' && ownSequence.test(text.slice(offset, offset + 5))) return char;
    return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}
