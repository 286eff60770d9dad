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
