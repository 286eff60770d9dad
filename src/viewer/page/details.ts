/**
 * The details of the selected span: kind, status and timing; its error with the `Caused by` chain; the run's
 * input and output for the top-level workflow; attributes (arguments and results as recorded, already
 * redacted); point events; console lines. Recorded text is set as text, JSON is shown indented.
 */
import {element, formatDuration} from './dom.ts';
import type {RunDetail, ViewSpan} from './types.ts';
import {stateOf} from './waterfall.ts';

export function renderDetails(panel: HTMLElement, span: ViewSpan, detail: RunDetail): void {
  const t0 = detail.view.startMs ?? 0;
  const state = stateOf(span);
  const facts: [string, string][] = [
    ['kind', span.kind],
    ['status', state === 'open' ? 'no end recorded' : state],
    ['start', span.start === undefined ? 'not recorded' : `+${formatDuration(span.start - t0)}`],
    ['duration', span.end === undefined ? 'no end recorded' : formatDuration(span.durationMs)],
    ['workflow', span.workflow],
    ['execution', span.executionId],
    ['span', span.spanId],
  ];
  const sections: HTMLElement[] = [
    element('h2', {text: span.name}),
    element(
      'dl',
      {className: 'facts'},
      facts.flatMap(([name, value]) => [element('dt', {text: name}), element('dd', {text: value})]),
    ),
  ];
  if (span.error !== undefined) {
    const lines = [
      element('p', {className: 'error-line', text: errorLine(span.error)}),
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
  }
  const attributes = Object.entries(span.attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (attributes.length > 0) {
    sections.push(
      section('Attributes', [
        element(
          'table',
          {className: 'attributes', attributes: {id: 'attributes'}},
          attributes.map(([name, value]) =>
            element('tr', {}, [element('th', {text: name}), element('td', {}, [attributeValue(value)])]),
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

function errorLine(error: {code?: string; type?: string; message: string}): string {
  const label = error.code ?? error.type;
  return label === undefined ? error.message : `${label}: ${error.message}`;
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
