import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { withinTimeout } from './within-timeout.ts';

/** Options of `gracefulShutdown(server, options)`. */
export interface GracefulShutdownOptions {
  /** Releases what requests used, once the last one has finished: `() => sequelize.close()`. */
  close?: () => unknown;
  /**
   * Milliseconds in-flight requests get to finish before their connections
   * are cut, and then `close` gets to finish before the shutdown ends with
   * code 1 anyway (a pool waiting on a connection never given back must not
   * keep a stopped process alive). Default 10000.
   */
  timeout?: number;
  /** Signals that start the shutdown. Default SIGTERM and SIGINT; `[]` to call the returned function yourself. */
  signals?: readonly NodeJS.Signals[];
  /** Called with the exit code once shut down (1 when `close` failed). Default `process.exit`; with no signals, nothing. */
  exit?: (code: number) => void;
}

/**
 * Shuts `server` down without dropping requests: on SIGTERM (or SIGINT) it
 * stops accepting connections, lets in-flight requests finish (up to
 * `timeout`, then cuts them), closes idle keep-alive connections, runs
 * `close` and exits. Returns the shutdown, to start it by hand; calling it
 * again returns the same promise.
 */
export function gracefulShutdown(server: Server, options: GracefulShutdownOptions = {}): () => Promise<number> {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const exit = options.exit ?? (signals.length > 0 ? (code: number) => process.exit(code) : () => undefined);
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    // a request arriving on a kept-alive connection while draining is served, then that connection closes too
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      if (draining) server.closeIdleConnections();
    });
  });
  let shutdown: Promise<number> | undefined;
  const start = () => {
    const timeout = options.timeout ?? 10_000;
    shutdown ??= drain(server, inFlight, timeout, () => (draining = true)).then(() => closeResources(options.close, timeout));
    return shutdown;
  };
  for (const signal of signals) {
    process.once(signal, () => {
      // a second signal means "now": cut what is still open
      process.once(signal, () => server.closeAllConnections());
      void start().then(exit);
    });
  }
  return start;
}

function drain(server: Server, inFlight: Set<ServerResponse>, timeout: number, markDraining: () => void): Promise<void> {
  markDraining();
  return new Promise((resolve) => {
    // without this, in-flight responses would leave their connections open for the keep-alive timeout
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const force = setTimeout(() => server.closeAllConnections(), timeout);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

async function closeResources(close: GracefulShutdownOptions['close'], timeout: number): Promise<number> {
  try {
    await withinTimeout(Promise.resolve().then(close), timeout, 'close did not finish');
    return 0;
  } catch (error) {
    console.error('shutdown: closing failed:', error);
    return 1;
  }
}
