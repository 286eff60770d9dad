/**
 * Terminal styling that honours NO_COLOR and plain pipes (color only on a terminal, never in --json), and the
 * escaping of untrusted text. Readable output is escaped whole, so no control character of a description, a model
 * name, a tool's error or a workflow's output reaches the terminal; only then are Stratos's own styles applied. The
 * painter therefore writes no escape code itself: it marks styled text with a key chosen at random for this
 * process, which untrusted text cannot know, and {@link applyStyles} turns those marks into escape codes.
 */

const codes = {red: [31, 39], yellow: [33, 39], green: [32, 39], dim: [2, 22], bold: [1, 22]} as const;

export type Style = keyof typeof codes;

/** Private-use characters around a style mark: `\uE000<key>:<SGR code>\uE001`. */
const markOpen = '\uE000';
const markClose = '\uE001';
let styleKey: string | undefined;
let markPattern: RegExp | undefined;

/** A `paint(text, style)` for readable output: it marks text for {@link applyStyles}, or returns it as it is. */
export function createPainter(
  stream: {isTTY?: boolean},
  env: NodeJS.ProcessEnv,
): (text: string, style: Style) => string {
  const enabled =
    stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb';
  if (!enabled) return (text) => text;
  styleKey ??= crypto.randomUUID().replaceAll('-', '');
  const key = styleKey;
  const mark = (code: number) => `${markOpen}${key}:${code}${markClose}`;
  return (text, style) => `${mark(codes[style][0])}${text}${mark(codes[style][1])}`;
}

/** The style marks of this process's painters as terminal escape codes; the last step, after escapeControls. */
export function applyStyles(text: string): string {
  if (styleKey === undefined || !text.includes(markOpen)) return text;
  markPattern ??= new RegExp(`${markOpen}${styleKey}:(\\d+)${markClose}`, 'g');
  return text.replace(markPattern, (_, code: string) => `\u001b[${code}m`);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text with every control character shown as a `\x1b`-style escape (tab and line feed stay; the bidirectional
 * overrides that reorder what is shown become `\u202e`-style), so a hostile description, folder name or workflow
 * output cannot color, clear, rewrite or reorder the terminal. No escape sequence is
 * let through, whatever it looks like: Stratos's own colors are applied afterwards ({@link applyStyles}).
 */
export function escapeControls(text: string): string {
  return text.replace(control, (char) => {
    const code = char.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}
