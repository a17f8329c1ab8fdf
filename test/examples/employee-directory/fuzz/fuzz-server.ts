import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** A request as the fuzzer sends it: `path` carries the query string exactly as it goes on the wire. */
export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Sent as is: generated bodies are JSON text (often hostile), not objects. */
  body?: string;
  headers?: Record<string, string>;
}

export interface FuzzResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface FuzzServer {
  send(request: FuzzRequest): Promise<FuzzResponse>;
  close(): Promise<void>;
}

/** How long one request may take before the fuzzer calls the server hung. */
export const ANSWER_WITHIN_MS = 20_000;

/**
 * The app on a loopback port. Node's header limit is raised to 4 MB so 100 kB
 * query values reach the application instead of being cut off by Node's own
 * parser (a bodiless 431): the framework's handling is what is under test.
 */
export async function startFuzzServer(app: Express): Promise<FuzzServer> {
  const server: Server = createServer({ maxHeaderSize: 4 * 1024 * 1024 }, app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    async send(request) {
      const headers: Record<string, string> = { accept: 'application/vnd.api+json', ...request.headers };
      if (request.body !== undefined) headers['content-type'] ??= 'application/vnd.api+json';
      const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
        method: request.method,
        headers,
        body: request.body,
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
    close: () => new Promise((resolve, reject) => {
      server.closeAllConnections();
      server.close((e) => (e ? reject(e) : resolve()));
    }),
  };
}
