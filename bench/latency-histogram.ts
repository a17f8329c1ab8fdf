/**
 * Latencies in 0.1 ms buckets up to 30 s (slower ones share the last), so a
 * long soak records every request in fixed memory.
 */
export class LatencyHistogram {
  private readonly buckets = new Uint32Array(300_000);
  private count = 0;
  max = 0;

  record(ms: number): void {
    this.buckets[Math.min(this.buckets.length - 1, Math.floor(ms * 10))]!++;
    this.count++;
    this.max = Math.max(this.max, ms);
  }

  /** The latency `p` percent of requests stayed within, in ms. */
  percentile(p: number): number {
    const wanted = Math.ceil((this.count * p) / 100);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i]!;
      if (seen >= wanted && seen > 0) return (i + 1) / 10;
    }
    return 0;
  }
}
