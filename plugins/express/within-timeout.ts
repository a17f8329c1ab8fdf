/**
 * `work`, or a rejection with `${late} within ${ms} ms` once `ms` have
 * passed. The timer does not hold the process open: what the work still
 * holds does. A rejection of `work` after the deadline is handled here, not
 * left unhandled.
 */
export function withinTimeout<T>(work: Promise<T>, ms: number, late: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${late} within ${ms} ms`)), ms);
    timer.unref();
  });
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
