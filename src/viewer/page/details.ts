/**
 * The details of the selected span: kind, status and timing; its error with the `Caused by` chain; the run's
 * input and output for the top-level workflow; attributes (arguments and results as recorded, already
 * redacted); point events; console lines. Recorded text is set as text, JSON is shown indented.
 */
import {renderCost} from './cost.ts';
import {describeStatus, element, formatDuration, formatLocation, spanTokens} from './dom.ts';
import type {RunDetail, ViewSpan} from './types.ts';
import {stateOf} from './waterfall.ts';

/** Attributes the Error section already says (its code, message and location): not listed again. */
const errorAttributes = new Set([
  'error.type',
  'stratos.error.message',
  'code.file.path',
  'code.line.number',
  'code.column.number',
]);

/** `spanHref`: the page's link to a span of this run (the URL hash). */
export function renderDetails(
  panel: HTMLElement,
  span: ViewSpan,
  detail: RunDetail,
  spanHref: (spanId: string) => string,
): void {
  const t0 = detail.view.startMs ?? 0;
  const state = stateOf(span);
  const tokens = spanTokens(span.attributes);
  const facts: [string, string][] = [
    ['kind', span.kind],
    ['status', state === 'open' ? 'no end recorded' : describeStatus(state)],
    ['start', span.start === undefined ? 'not recorded' : `+${formatDuration(span.start - t0)}`],
    ['duration', span.end === undefined ? 'no end recorded' : formatDuration(span.durationMs)],
    ['workflow', span.workflow],
    ['execution', span.executionId],
    ['span', span.spanId],
    ...(tokens === '' ? [] : [['tokens', tokens] as [string, string]]),
  ];
  const sections: HTMLElement[] = [
    element('h2', {text: span.label}),
    element(
      'dl',
      {className: 'facts'},
      facts.flatMap(([name, value]) => [element('dt', {text: name}), element('dd', {text: value})]),
    ),
  ];
  const origin =
    span.errorFrom === undefined ? undefined : detail.view.spans.find((s) => s.spanId === span.errorFrom);
  if (origin !== undefined) {
    // The error happened below and passed through here: one link to it instead of a second copy.
    sections.push(
      section('Error', [
        element('p', {className: 'error-from', attributes: {id: 'error'}}, [
          'Failed with the error of ',
          element('a', {text: origin.label, attributes: {href: spanHref(origin.spanId)}}),
          '.',
        ]),
      ]),
    );
  } else if (span.error !== undefined) {
    const where = span.error.location === undefined ? undefined : formatLocation(span.error.location);
    const lines = [
      element('p', {
        className: 'error-line',
        // The run's own error is under the run's title already: here its code says which one it is.
        text: isRunError(span.error, detail)
          ? `${span.error.code ?? span.error.type ?? 'error'} (the run's error, above)`
          : errorLine(span.error),
      }),
      ...(where === undefined ? [] : [element('p', {className: 'error-where', text: `at ${where}`})]),
      ...(span.error.causes ?? []).map((cause) =>
        element('p', {className: 'cause-line', text: `Caused by: ${errorLine(cause)}`}),
      ),
    ];
    sections.push(section('Error', [element('div', {className: 'error', attributes: {id: 'error'}}, lines)]));
  }
  if (span.kind === 'workflow' && span.parentSpanId === undefined) {
    const {input, output} = detail.record;
    if (input !== undefined) sections.push(section('Input', [valueBlock(input.preview, input.truncated)]));
    if (output !== undefined)
      sections.push(section('Output', [valueBlock(output.preview, output.truncated)]));
    const cost = renderCost(detail, spanHref);
    if (cost !== undefined) sections.push(cost);
  }
  const attributes = Object.entries(span.attributes)
    .filter(([name]) => span.error === undefined || !errorAttributes.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (attributes.length > 0) {
    sections.push(
      section('Attributes', [
        element(
          'table',
          {className: 'attributes', attributes: {id: 'attributes'}},
          attributes.map(([name, value]) =>
            element('tr', {}, [
              element('th', {}, attributeName(name)),
              element('td', {}, [attributeValue(value)]),
            ]),
          ),
        ),
      ]),
    );
  }
  if (span.events.length > 0) {
    sections.push(
      section(
        'Events',
        span.events.map((event) =>
          element('div', {className: 'event'}, [
            element('span', {className: 'dim', text: `+${formatDuration(event.time - t0)} `}),
            element('span', {text: event.name}),
            ...(event.attributes === undefined
              ? []
              : [element('pre', {text: JSON.stringify(event.attributes, null, 2)})]),
          ]),
        ),
      ),
    );
  }
  if (span.logs.length > 0) {
    sections.push(
      section('Log', [
        element(
          'div',
          {className: 'logs', attributes: {id: 'logs'}},
          span.logs.map((line) =>
            element('div', {className: `log log-${line.level}`}, [
              element('span', {className: 'dim', text: `+${formatDuration(line.time - t0)}`}),
              element('span', {className: 'level', text: line.level}),
              element('span', {className: 'message', text: line.message}),
            ]),
          ),
        ),
      ]),
    );
  }
  panel.replaceChildren(...sections);
}

function section(title: string, children: HTMLElement[]): HTMLElement {
  return element('section', {}, [element('h3', {text: title}), ...children]);
}

function isRunError(error: {code?: string; message: string}, detail: RunDetail): boolean {
  const run = detail.run.error;
  return run !== undefined && error.code === run.code && error.message === run.message;
}

function errorLine(error: {code?: string; type?: string; message: string}): string {
  const label = error.code ?? error.type;
  if (label === undefined) return error.message;
  return error.message === '' ? label : `${label}: ${error.message}`;
}

/** A dotted attribute name that may wrap after each dot (`gen_ai.` `usage.` `input_tokens`), not mid-word. */
function attributeName(name: string): (Node | string)[] {
  return name
    .split('.')
    .flatMap((part, index, parts) =>
      index === parts.length - 1 ? [part] : [`${part}.`, document.createElement('wbr')],
    );
}

/** A string holding JSON (tool arguments, results) is shown indented; anything else as it was recorded. */
function attributeValue(value: unknown): HTMLElement {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return element('pre', {text: JSON.stringify(JSON.parse(trimmed), null, 2)});
      } catch {
        // Not JSON after all: shown as recorded.
      }
    }
    return element('span', {className: 'value', text: value});
  }
  return element('span', {className: 'value', text: JSON.stringify(value)});
}

function valueBlock(preview: string, truncated: boolean): HTMLElement {
  let text = preview;
  if (!truncated) {
    try {
      text = JSON.stringify(JSON.parse(preview), null, 2);
    } catch {
      text = preview;
    }
  }
  return element('pre', {text: truncated ? `${text}… (cut at 2,000 characters)` : text});
}
