/**
 * Admits at most `limit` tasks at once; the rest wait their turn in order. A
 * limit of 1 runs everything one after another.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Not an async function: a task admitted at once (the usual case) costs one promise, not three. */
  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) return this.queued(task);
    this.active++;
    let running: Promise<T>;
    try {
      running = task();
    } catch (error) {
      this.done();
      return Promise.reject(error);
    }
    return running.then(
      (value) => {
        this.done();
        return value;
      },
      (error: unknown) => {
        this.done();
        throw error;
      },
    );
  }

  private async queued<T>(task: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.done();
    }
  }

  private done(): void {
    this.active--;
    this.waiting.shift()?.();
  }
}
