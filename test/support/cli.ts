import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../bin/main.ts';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Runs `mural` in-process, as a script would (no terminal), capturing its output. */
export async function runMural(argv: string[], cwd = process.cwd()): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    cwd,
    io: { out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`), err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`), interactive: false },
  });
  return { code, out, err };
}

export const EXAMPLE_CONFIG = 'examples/employee-directory/mural.config.ts';

/**
 * Points the example config at a SQLite file of this test process, so test
 * files running in parallel never seed the same database.
 */
export function useScratchDatabase(name: string): void {
  process.env.DATABASE_URL = `sqlite:${join(tmpdir(), `mural-${name}-${process.pid}.db`)}`;
}
