/**
 * What a span is called where people read it (`stratos runs show`, the runs page): its name, and for a tool call
 * its key argument, so eleven calls of one tool read as eleven different calls (`tools/call read_text_file
 * path=src/x.ts`). The recorded name stays as it is; this is only the label.
 */

const argumentsAttribute = 'gen_ai.tool.call.arguments';
/** Argument names that usually say which thing a call is about, in order of preference. */
const keyNames = [
  'path',
  'file_path',
  'filePath',
  'file',
  'url',
  'uri',
  'command',
  'query',
  'pattern',
  'name',
  'id',
];
const maxValueLength = 48;

/** The span's name with its key argument appended (`key=value`) when it recorded tool-call arguments. */
export function labelSpan(name: string, attributes: Record<string, unknown> | undefined): string {
  const argument = keyArgument(attributes?.[argumentsAttribute]);
  return argument === undefined ? name : `${name} ${argument}`;
}

/** `key=value` of the preferred argument, else of the first one with a scalar value; undefined when none. */
function keyArgument(recorded: unknown): string | undefined {
  if (typeof recorded !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(recorded);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const entries = Object.entries(parsed).filter(([, value]) =>
    ['string', 'number', 'boolean'].includes(typeof value),
  );
  const preferred = keyNames.map((key) => entries.find(([name]) => name === key)).find((entry) => entry);
  const [key, value] = preferred ?? entries[0] ?? [];
  if (key === undefined) return undefined;
  const text = String(value).replace(/\s+/g, ' ');
  const cut = text.length > maxValueLength ? `${text.slice(0, maxValueLength - 1)}…` : text;
  return `${key}=${/\s/.test(cut) || cut === '' ? JSON.stringify(cut) : cut}`;
}
