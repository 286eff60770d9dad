/**
 * What an invocation owns (MCP clients, agents, child invocations): registered before lazy initialization so a
 * half-made resource is still cleaned up. `closeAll` tries every resource in reverse order and reports, never
 * throws.
 */

import {StratosError} from '../errors/index.ts';
import {describeError} from '../internal/describe-error.ts';

export interface OwnedResource {
  /** For reports: `mcp:github`, `agent:reviewer`. */
  label: string;
  close(): Promise<void> | void;
}

export interface CleanupFailure {
  label: string;
  /** `STRATOS_CLEANUP_FAILED`, with what `close()` threw as its cause. */
  error: StratosError;
}

export class ResourceRegistry {
  #resources: OwnedResource[] = [];
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Registers a resource; returns a function that unregisters it (for resources closed by their own path). */
  register(resource: OwnedResource): () => void {
    if (this.#closed) {
      throw new StratosError(
        'STRATOS_RUNTIME_CONTEXT_CLOSED',
        `${resource.label} cannot start: its workflow invocation has ended. Await all work inside run.`,
      );
    }
    this.#resources.push(resource);
    return () => {
      this.#resources = this.#resources.filter((r) => r !== resource);
    };
  }

  /** Closes every resource, newest first; a `close()` that throws is reported and the rest are still closed. */
  async closeAll(): Promise<CleanupFailure[]> {
    this.#closed = true;
    const failures: CleanupFailure[] = [];
    for (const resource of this.#resources.reverse()) {
      try {
        await resource.close();
      } catch (error) {
        failures.push({label: resource.label, error: describeCleanupFailure(resource.label, error)});
      }
    }
    this.#resources = [];
    return failures;
  }
}

function describeCleanupFailure(label: string, error: unknown): StratosError {
  const reason = describeError(error);
  return new StratosError(
    'STRATOS_CLEANUP_FAILED',
    `Cleanup of ${label} failed: ${reason.replace(/\.?$/, '.')} The run's result or error stands; check that nothing ${label} started is still running.`,
    {cause: error, details: {resource: label}},
  );
}
