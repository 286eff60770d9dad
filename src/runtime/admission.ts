/**
 * Agent admission for one top-level run and its children (design philosophy, "Bound outstanding work without a
 * global scheduler"): at most `maxActive` executions run at once, at most `maxOutstanding` run or wait; a call past
 * that is a catchable error. Waiting calls are admitted in arrival order. Separate runs have separate limiters.
 * Limits come from `~/.stratos/settings.json` (`agents.maxActive`, `agents.maxOutstanding`), read on first use.
 */
import {readSettings} from '../config/settings.ts';
import {StratosError} from '../errors/index.ts';
import {resolveStratosHome} from '../internal/stratos-home.ts';

export interface AdmissionLimits {
  maxActive: number;
  maxOutstanding: number;
}

export interface AdmissionSnapshot extends AdmissionLimits {
  active: number;
  queued: number;
}

interface Waiter {
  admit: () => void;
  reject: (reason: unknown) => void;
}

export class AdmissionLimiter {
  #limits: AdmissionLimits | undefined;
  #loading: Promise<AdmissionLimits> | undefined;
  #load: () => Promise<AdmissionLimits>;
  #active = 0;
  #queue: Waiter[] = [];

  /** `limits` fixes the limits; without it they are read from the settings file on first acquire. */
  constructor(limits?: AdmissionLimits | (() => Promise<AdmissionLimits>)) {
    if (typeof limits === 'function') this.#load = limits;
    else {
      this.#limits = limits;
      this.#load = async () => (await readSettings(resolveStratosHome())).agents;
    }
  }

  snapshot(): AdmissionSnapshot {
    const limits = this.#limits ?? {maxActive: Number.NaN, maxOutstanding: Number.NaN};
    return {...limits, active: this.#active, queued: this.#queue.length};
  }

  /**
   * Waits for a free slot and returns the function that frees it (call it exactly once).
   * @throws StratosError STRATOS_AGENT_ADMISSION_LIMIT past `maxOutstanding`; STRATOS_SETTINGS_INVALID; the
   *   signal's reason when it aborts while waiting.
   */
  async acquire(label: string, signal?: AbortSignal): Promise<() => void> {
    const limits = this.#limits ?? (await this.#readLimits());
    signal?.throwIfAborted();
    if (this.#active + this.#queue.length >= limits.maxOutstanding) {
      throw new StratosError(
        'STRATOS_AGENT_ADMISSION_LIMIT',
        `${label} cannot start: this run already has ${this.#active} active and ${this.#queue.length} queued agent executions, the limit of agents.maxOutstanding (${limits.maxOutstanding}) in ~/.stratos/settings.json. Await earlier executions first or raise the limit.`,
        {details: {...limits, active: this.#active, queued: this.#queue.length}},
      );
    }
    if (this.#active < limits.maxActive) {
      this.#active += 1;
      return this.#releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        this.#queue = this.#queue.filter((entry) => entry !== waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, {once: true});
      this.#queue.push(waiter);
    });
    return this.#releaser();
  }

  async #readLimits(): Promise<AdmissionLimits> {
    this.#loading ??= this.#load();
    try {
      this.#limits = await this.#loading;
    } finally {
      this.#loading = undefined;
    }
    return this.#limits;
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      // The slot passes straight to the next waiter, so the active count stays the same.
      if (next !== undefined) next.admit();
      else this.#active -= 1;
    };
  }
}
