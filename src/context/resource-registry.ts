/**
 * What an invocation owns (MCP clients, agents, child invocations): registered before lazy initialization so a
 * half-made resource is still cleaned up. `closeAll` tries every resource in reverse order and reports, never
 * throws.
 */

import {StratosError} from '../errors/index.ts';

export interface OwnedResource {
  /** For reports: `mcp:github`, `agent:reviewer`. */
  label: string;
  close(): Promise<void> | void;
}

export interface CleanupFailure {
  label: string;
  error: unknown;
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

  async closeAll(): Promise<CleanupFailure[]> {
    this.#closed = true;
    const failures: CleanupFailure[] = [];
    for (const resource of this.#resources.reverse()) {
      try {
        await resource.close();
      } catch (error) {
        failures.push({label: resource.label, error});
      }
    }
    this.#resources = [];
    return failures;
  }
}
