import type { Server } from 'node:http';

/** `limitSlowClients` options, in milliseconds. */
export interface SlowClientLimits {
  /** Most time a request's URL and headers may take to arrive. Default 10,000. */
  headersTimeout?: number;
  /** Most time a whole request, headers and body, may take to arrive. Default 30,000. */
  requestTimeout?: number;
}

/**
 * Bounds how long a client may take to send a request. Node allows 60 s for
 * the headers and 300 s for the whole request, so a client trickling a byte
 * at a time holds its connection (a socket, a file descriptor, buffers) for
 * minutes, and a few thousand such clients hold them all. With these limits a
 * stalled request is cut off after 10 s (its headers) or 30 s (all of it:
 * `bodyLimit`'s 1 MB at 35 KB/s); `answerClientErrors` answers it with a
 * JSON:API 408. Only the arrival of the request is limited, never the time
 * Mural takes to answer it (that is `databaseTimeout`'s).
 *
 * Node checks these every `connectionsCheckingInterval` (an option of
 * `http.createServer`, 30 s by default), so a limit holds to within it:
 * create the server with a shorter one, e.g. 1 s.
 */
export function limitSlowClients(server: Server, limits: SlowClientLimits = {}): Server {
  const headersTimeout = limits.headersTimeout ?? 10_000;
  const requestTimeout = limits.requestTimeout ?? 30_000;
  for (const [name, value] of Object.entries({ headersTimeout, requestTimeout })) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`limitSlowClients: ${name} must be a positive number of milliseconds, not ${value}`);
  }
  // Node refuses a request limit shorter than the headers' own
  if (headersTimeout > requestTimeout) throw new RangeError(`limitSlowClients: headersTimeout (${headersTimeout}) is longer than requestTimeout (${requestTimeout})`);
  server.headersTimeout = headersTimeout;
  server.requestTimeout = requestTimeout;
  return server;
}
