/**
 * The race behind `untilCancelled` (the invocation's abort signal) and `watchRunningBody` (a failure the process
 * saw): a workflow body runs until it settles, unless something outside it rejects first. Whichever comes first
 * settles the promise; what comes later is ignored.
 */

/**
 * Runs `body` and settles as it does, unless the interruption rejects first. `arm(reject)` sets up the
 * interruption (an abort listener, a registry entry) before the body starts and returns what takes it down again,
 * called as soon as the body settles. `describeRejection` may turn the body's rejection into another error (a
 * body that stopped because it was cancelled fails as the cancellation); a body that throws synchronously rejects
 * with its own error.
 */
export function runUntilInterrupted<T>(
  body: () => T | Promise<T>,
  arm: (reject: (error: unknown) => void) => () => void,
  describeRejection: (error: unknown) => unknown = (error) => error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const disarm = arm(reject);
    try {
      Promise.resolve(body()).then(
        (value) => {
          disarm();
          resolve(value);
        },
        (error: unknown) => {
          disarm();
          reject(describeRejection(error));
        },
      );
    } catch (error) {
      disarm();
      reject(error);
    }
  });
}
