/** Building the page: elements with text set through textContent only, never parsed as HTML. */

export interface ElementOptions {
  className?: string;
  text?: string;
  title?: string;
  attributes?: Record<string, string>;
  /** Set through the CSSOM (the page's policy refuses inline style attributes). */
  style?: Record<string, string>;
}

/** A new element; `text` becomes its textContent, children are appended in order. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className !== undefined) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  if (options.title !== undefined) node.title = options.title;
  for (const [name, value] of Object.entries(options.attributes ?? {})) node.setAttribute(name, value);
  for (const [name, value] of Object.entries(options.style ?? {})) node.style.setProperty(name, value);
  for (const child of children) node.append(child);
  return node;
}

/** `0.4 ms`, `12 ms`, `1.53 s`, `2 min 5 s`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || Number.isNaN(ms)) return '';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * A date and time to the second in one form whatever the browser's locale: `2026-12-03 11:51:16`, local time
 * (the ISO form without the `T` and the offset).
 */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** `file:line:column` of a recorded source location. */
export function formatLocation(location: {file: string; line?: number; column?: number}): string {
  return [location.file, location.line, location.column].filter((part) => part !== undefined).join(':');
}

/** The word people read for a recorded span status: `ok` is `succeeded`, `error` is `failed`. */
export function describeStatus(status: string): string {
  return status === 'ok' ? 'succeeded' : status === 'error' ? 'failed' : status;
}

/** The token usage a span recorded (`gen_ai.usage.*`), as `in 10 · out 5`; '' when it recorded none. */
export function spanTokens(attributes: Record<string, unknown>): string {
  const input = attributes['gen_ai.usage.input_tokens'];
  const output = attributes['gen_ai.usage.output_tokens'];
  if (typeof input !== 'number' && typeof output !== 'number') return '';
  return formatTokens({
    ...(typeof input === 'number' ? {inputTokens: input} : {}),
    ...(typeof output === 'number' ? {outputTokens: output} : {}),
  });
}

export function formatTokens(usage: {inputTokens?: number; outputTokens?: number} | undefined): string {
  if (usage === undefined || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return '';
  return `in ${usage.inputTokens ?? '?'} · out ${usage.outputTokens ?? '?'}`;
}

/** The page's JSON from its own server; paths are relative to the page, so they keep its token. */
export async function fetchJson<T>(path: string): Promise<T> {
  const response = await fetch(path, {headers: {Accept: 'application/json'}});
  if (!response.ok) throw new Error(`${response.status} ${(await response.text()).trim()}`);
  return (await response.json()) as T;
}
