import { createServer } from 'node:net';
import { DatabaseUrlError } from './db/database-url.ts';
import { TokenKeyError } from './auth/tokens.ts';

/** What the person starting the server can change, for a failure to start that is theirs to fix; undefined for anything else. */
function remedy(error: unknown): string | undefined {
  if (error instanceof DatabaseUrlError || error instanceof TokenKeyError) return error.message;
  const { code, port } = error as NodeJS.ErrnoException & { port?: number };
  if (code === 'EADDRINUSE' && port !== undefined) return `Port ${port} is in use; set PORT to another port (PORT=${port + 1} npm start).`;
  if (code === 'EACCES' && port !== undefined) return `Port ${port} needs privileges this user lacks; set PORT to one above 1023 (PORT=3000 npm start).`;
  return undefined;
}

/**
 * Ends the process for a failure to start its starter can fix: one line on
 * stderr saying what to change, exit code 1, no stack (which would bury the
 * line and says nothing they need). Anything else is thrown on: a bug's stack is what finds it.
 */
export function failStartup(error: unknown): never {
  const line = remedy(error);
  if (line === undefined) throw error;
  console.error(line);
  process.exit(1);
}

/** `fn()`, or the process ended by failStartup. */
export function starting<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    return failStartup(error);
  }
}

/**
 * Resolves when `port` can be listened on, by listening on it for a moment:
 * the primary of several workers asks before forking them, since a worker
 * failing to listen would only be restarted, and fail again, forever.
 */
export function portAvailable(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, () => probe.close(() => resolve()));
  });
}
