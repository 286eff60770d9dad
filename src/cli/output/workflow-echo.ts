/**
 * The echo of what workflow code (or anything else in the process) writes to `process.stdout` and `process.stderr`
 * during a command. Each destination gets one StreamRedactor, so a secret written in pieces is replaced as if it was
 * written whole, and every control character is escaped, so no terminal escape of the workflow's text reaches the
 * terminal. The CLI flushes what the redactor holds back before its own text and at exit: order is kept and nothing
 * is lost.
 */
import {StreamRedactor} from '../../api/output-redaction.ts';
import {escapeControls} from './style.ts';

type Write = typeof process.stdout.write;

/** One destination's echo: the replacement for a stream's `write`, and the flush of what it holds back. */
export interface WorkflowEcho {
  write: Write;
  /** Writes the held-back tail, redacted and escaped; does nothing (and creates no stream) when nothing is held. */
  flush(): void;
}

/** An echo writing through `target` (the stream's own write, looked up when first needed). */
export function createWorkflowEcho(target: () => Write): WorkflowEcho {
  const redactor = new StreamRedactor();
  // Bytes of a character split across two Buffer writes wait for the rest instead of becoming U+FFFD.
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  const decode = (chunk: unknown, encoding: BufferEncoding | undefined): string => {
    if (chunk instanceof Uint8Array) {
      decoder ??= new TextDecoder();
      return decoder.decode(chunk, {stream: true});
    }
    const text =
      typeof chunk === 'string' && encoding !== undefined
        ? Buffer.from(chunk, encoding).toString()
        : String(chunk);
    return (decoder?.decode() ?? '') + text;
  };
  const write = ((chunk: unknown, ...rest: unknown[]) => {
    const encoding = typeof rest[0] === 'string' ? (rest.shift() as BufferEncoding) : undefined;
    const text = decode(chunk, encoding);
    return (target() as (text: string, ...rest: unknown[]) => boolean)(
      escapeControls(redactor.push(text)),
      ...rest,
    );
  }) as Write;
  return {
    write,
    flush() {
      if (redactor.holding) target()(escapeControls(redactor.flush()));
    },
  };
}
