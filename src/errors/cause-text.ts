/**
 * The words of one link of an error's `cause` chain, and which links are worth showing. Every printer of a chain
 * (the CLI's `Caused by:` lines and `--json` causes, the recorded run events, `stratos runs show`, the runs page)
 * reads causes through these two, so a cause that is not an Error reads the same everywhere.
 */

/** One link of a cause chain as shown: its code when it has one, its type (the error's name), its words. */
export interface CauseLine {
  code?: string;
  type?: string;
  message: string;
}

/**
 * The text of one cause: an Error's message; for an MCP tool result (the cause of `McpToolError`) its text content
 * items joined, else its structured content as compact JSON; any other object as compact JSON; anything else as
 * text. Never `[object Object]`.
 */
export function describeCauseText(cause: unknown): string {
  if (typeof cause !== 'object' || cause === null) return String(cause);
  const {message} = cause as {message?: unknown};
  if (typeof message === 'string') return message;
  const {content, structuredContent} = cause as {content?: unknown; structuredContent?: unknown};
  if (Array.isArray(content) || structuredContent !== undefined) {
    const texts = (Array.isArray(content) ? content : []).flatMap((block) =>
      typeof block === 'object' && block !== null && (block as {type?: unknown}).type === 'text'
        ? [String((block as {text?: unknown}).text ?? '').trim()]
        : [],
    );
    const text = texts.filter((part) => part !== '').join(' ');
    if (text !== '') return text;
    if (structuredContent !== undefined) return compactJson(structuredContent);
    return compactJson(content);
  }
  return compactJson(cause);
}

/**
 * The causes worth printing under `message`: each fact once. A cause whose words the error (or an earlier cause)
 * already says is shown by its code alone (message `''`), or left out when it has no code: `Workflow 'x' failed:
 * bad n 5` is not followed by `Caused by: bad n 5`.
 */
export function visibleCauses<T extends CauseLine>(message: string, causes: readonly T[]): T[] {
  const said = [message];
  const visible: T[] = [];
  for (const cause of causes) {
    const words = cause.message.trim();
    const repeated = words === '' || said.some((text) => text.includes(words));
    said.push(cause.message);
    if (!repeated) visible.push(cause);
    else if (cause.code !== undefined) visible.push({...cause, message: ''});
  }
  return visible;
}

function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
