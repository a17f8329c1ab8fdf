import { ServiceUnavailable } from '../../core/index.ts';

/** How long a write may wait for its turn, how many may wait, and what a refused one is told. */
export interface WriteQueueLimits {
  /** Milliseconds a write waits for the writes ahead of it before it is refused. */
  readonly timeout: number;
  /** Writes that may wait at once; one more is refused at once. */
  readonly length: number;
  /** Seconds the refused client is told to wait (`Retry-After`). */
  readonly retryAfter: number;
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

/**
 * Runs writes one at a time, first come first served. A write that cannot
 * start within the limits is refused with a 503 before it begins, so it has
 * written nothing and the client may safely send it again.
 */
export class WriteQueue {
  private running = false;
  private readonly waiting: Waiter[] = [];

  /** `limits` is read for every write, so settings changed later apply to the next one. */
  constructor(private readonly limits: () => WriteQueueLimits) {}

  /** Writes waiting for their turn now (not counting the one running). */
  get length(): number {
    return this.waiting.length;
  }

  async run<T>(write: () => Promise<T>): Promise<T> {
    await this.turn();
    try {
      return await write();
    } finally {
      this.next();
    }
  }

  private turn(): Promise<void> {
    if (!this.running) {
      this.running = true;
      return Promise.resolve();
    }
    const { timeout, length, retryAfter } = this.limits();
    if (this.waiting.length >= length) {
      return Promise.reject(refusal(`the queue of ${length} waiting writes is full`, retryAfter));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(refusal(`this write waited ${timeout} ms for its turn`, retryAfter));
        }, timeout),
      };
      this.waiting.push(waiter);
    });
  }

  /** Hands the turn straight to the next waiter, so a write arriving meanwhile cannot jump the queue. */
  private next(): void {
    const waiter = this.waiting.shift();
    if (!waiter) {
      this.running = false;
      return;
    }
    clearTimeout(waiter.timer);
    waiter.start();
  }
}

function refusal(reason: string, retryAfter: number): ServiceUnavailable {
  return new ServiceUnavailable('database_busy', `The database is busy with other writes: ${reason}. Nothing was written; try again shortly.`, retryAfter);
}
