/**
 * What `npm run bench` prints: every line as it comes, and the targets it
 * missed, which make it exit 1.
 */
export class Report {
  readonly lines: string[] = [];
  readonly failures: string[] = [];

  say(line: string): void {
    this.lines.push(line);
    console.log(line);
  }

  /** `value` against its target, as printed; a miss is remembered under `label`. */
  target(label: string, value: number, limit: number, atLeast: boolean): string {
    const ok = atLeast ? value >= limit : value <= limit;
    if (!ok) this.failures.push(`${label}: ${value.toFixed(2)} (target ${atLeast ? '≥' : '≤'} ${limit})`);
    return `${value.toFixed(2)} ${ok ? 'ok' : 'MISSED'} (target ${atLeast ? '≥' : '≤'} ${limit})`;
  }
}

export const ms = (n: number) => `${n.toFixed(2)} ms`;

/** Issue #17's targets: Mural at least 1.2× hand-written Sequelize (a), and (issue #35) 0.8× the driver by hand (b). */
export const TARGET_A = 1.2;
export const TARGET_B = 0.8;
