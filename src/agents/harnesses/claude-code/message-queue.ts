/** The streaming prompt: an async iterable the session pushes user messages into. */
export class MessageQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #ended = false;

  push(item: T): void {
    if (this.#waiting !== undefined) {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting({value: item, done: false});
    } else this.#items.push(item);
  }

  end(): void {
    this.#ended = true;
    this.#waiting?.({value: undefined, done: true});
    this.#waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.#items.shift();
        if (item !== undefined) return Promise.resolve({value: item, done: false});
        if (this.#ended) return Promise.resolve({value: undefined, done: true});
        return new Promise((resolve) => {
          this.#waiting = resolve;
        });
      },
    };
  }
}
