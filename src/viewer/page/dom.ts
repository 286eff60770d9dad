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

/** A local date and time to the second. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
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
