import { Ajv } from 'ajv';
import type { Express } from 'express';
import { jsonApiSchema } from './jsonapi-schema.ts';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

export interface HttpResponse {
  status: number;
  contentType: string | null;
  body: unknown;
  text: string;
  headers: Headers;
}

export interface HttpClient {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  get(path: string, headers?: Record<string, string>): Promise<HttpResponse>;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse>;
  close(): Promise<void>;
}

const validateDocument = new Ajv({ allErrors: true, strict: false }).compile(jsonApiSchema);

/** Every JSON:API response of the HTTP suites must be a valid JSON:API document. */
function assertJsonApi(method: string, path: string, contentType: string | null, parsed: unknown): void {
  if (!contentType?.startsWith('application/vnd.api+json')) return;
  if (!validateDocument(parsed)) {
    throw new Error(`${method} ${path} answered an invalid JSON:API document: ${JSON.stringify(validateDocument.errors?.slice(0, 3))}`);
  }
}

/** Serves `app` on a free loopback port and talks to it with fetch, as a client would. */
export async function serve(app: Express): Promise<HttpClient> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { accept: 'application/vnd.api+json', ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/vnd.api+json';
    }
    const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const contentType = response.headers.get('content-type');
    assertJsonApi(method, path, contentType, parsed);
    return { status: response.status, contentType, body: parsed, text, headers: response.headers };
  };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get: (path, headers) => request('GET', path, undefined, headers),
    request,
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
