/**
 * Serialized appends to one file. Every record is serialized whole before it is queued, and one write at a time
 * goes to the file, so concurrent recorders (parallel operations, parallel child workflows of one run) never
 * interleave inside a line. Writes are batched: records queue for up to BATCH_DELAY_MS, so a run of many short
 * operations costs few write calls. Each batch is written with synchronous calls: a few kilobytes to a local file
 * take microseconds, where the promise API pays a thread-pool round trip per call (open, stat, write, close) on
 * the way out of every run.
 */

/** How long records wait to be written together; a crash loses at most this much of the tail. */
export const BATCH_DELAY_MS = 20;

import {closeSync, fstatSync, ftruncateSync, openSync, writeSync} from 'node:fs';

export class AppendWriter {
  #path: string;
  #fd: number | undefined;
  /** Bytes of whole records in the file: a failed write is truncated back to it, so no line is ever torn. */
  #size = 0;
  #pending: string[] = [];
  #writing: Promise<void> | undefined;
  #failure: unknown;
  #onError: (error: unknown) => void;
  /** Ends the batching delay early: a flush (the end of a run) must not wait for the timer. */
  #wake: (() => void) | undefined;

  /** `onError` is called once, for the first failed open or write; later records are dropped. */
  constructor(path: string, onError: (error: unknown) => void) {
    this.#path = path;
    this.#onError = onError;
  }

  get path(): string {
    return this.#path;
  }

  /** Queues one chunk (a whole line, newline included). Never throws. */
  append(text: string): void {
    if (this.#failure !== undefined) return;
    this.#pending.push(text);
    this.#writing ??= this.#drain();
  }

  /** Resolves when everything queued so far is on disk (or has failed). */
  async flush(): Promise<void> {
    while (this.#writing !== undefined) {
      this.#wake?.();
      await this.#writing;
    }
  }

  async close(): Promise<void> {
    await this.flush();
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {}
    }
  }

  async #drain(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, BATCH_DELAY_MS);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#wake = undefined;
    try {
      if (this.#fd === undefined) {
        this.#fd = openSync(this.#path, 'a', 0o600);
        this.#size = fstatSync(this.#fd).size;
      }
      const fd = this.#fd;
      const chunk = Buffer.from(this.#pending.join(''), 'utf8');
      this.#pending = [];
      try {
        for (let offset = 0; offset < chunk.length; ) offset += writeSync(fd, chunk, offset);
      } catch (error) {
        // A full disk writes part of a chunk: cut the file back to its last whole record.
        try {
          ftruncateSync(fd, this.#size);
        } catch {}
        throw error;
      }
      this.#size += chunk.length;
    } catch (error) {
      this.#failure = error;
      this.#pending = [];
      this.#onError(error);
    } finally {
      this.#writing = undefined;
    }
  }
}
