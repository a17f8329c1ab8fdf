import test from 'ava';
import express from 'express';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { answerClientErrors, limitSlowClients, muralRouter } from '../../../plugins/express/index.ts';
import { directoryServer } from '../../support/directory-server.ts';
import { serve } from '../../support/http.ts';

/**
 * The transport's size limits, as a client meets them: an oversized body is a
 * 413, a URL over `maxUrlLength` a 414, and what Node itself refuses (a URL or
 * headers over its 16 KiB `maxHeaderSize`, bytes that are not HTTP) gets a
 * JSON:API answer through `answerClientErrors` rather than a reset.
 * (Nothing here reaches the database: SQLite stands for all three.)
 */
const { dir, client } = directoryServer({ name: 'sqlite', url: ':memory:' }, 'request_limits', 10);

const employee = (firstName: string) => ({ data: { type: 'employees', attributes: { first_name: firstName, last_name: 'Long' } } });

test.serial('a body over bodyLimit (default 1mb) is a 413 and writes nothing', async (t) => {
  const before = await dir.models.Employee.count();
  const response = await client.request('POST', '/api/v1/employees', employee('x'.repeat(1024 * 1024)));
  t.is(response.status, 413);
  t.deepEqual(response.body, {
    errors: [{ status: '413', code: 'payload_too_large', title: 'Payload Too Large', detail: 'request entity too large', source: { pointer: '' } }],
    jsonapi: { version: '1.1' },
  });
  t.is(await dir.models.Employee.count(), before);
  t.is((await client.request('POST', '/api/v1/employees', employee('Short'))).status, 201);
  await dir.models.Employee.destroy({ where: { first_name: 'Short' } });
});

test.serial('a body that says it is gzip but is not is a 400 saying so, not zlib\'s words', async (t) => {
  const before = await dir.models.Employee.count();
  const response = await client.request('POST', '/api/v1/employees', employee('Zipped'), { 'Content-Encoding': 'gzip' });
  t.is(response.status, 400);
  t.deepEqual(response.body, {
    errors: [{ status: '400', code: 'invalid_body', title: 'Bad Request', detail: 'The body is not valid gzip data', source: { pointer: '' } }],
    jsonapi: { version: '1.1' },
  });
  t.is(await dir.models.Employee.count(), before);
});

test.serial('a URL over maxUrlLength (default 8192) is a 414, before any query', async (t) => {
  const path = `/api/v1/employees?filter[first_name]=${'a'.repeat(8192)}`;
  dir.resetQueries();
  const response = await client.get(path);
  t.is(response.status, 414);
  t.deepEqual(response.body, {
    errors: [{ status: '414', code: 'uri_too_long', title: 'URI Too Long', detail: `The URL is ${path.length} characters long; the maximum is 8192` }],
    jsonapi: { version: '1.1' },
  });
  t.deepEqual(dir.queries, []);
  t.is((await client.get(`/api/v1/employees?filter[first_name]=${'a'.repeat(8000)}`)).status, 200);
});

test.serial('maxUrlLength is a router option, and covers unknown routes under the namespace', async (t) => {
  const app = express().use(muralRouter({ resources: Object.values(dir.resources), maxUrlLength: 40 }));
  const small = await serve(app);
  try {
    t.is((await small.get('/api/v1/employees?page[size]=1')).status, 200);
    const long = await small.get('/api/v1/employees?page[size]=1&sort=first_name');
    t.is(long.status, 414);
    t.like((long.body as { errors: unknown[] }).errors[0], { code: 'uri_too_long', detail: 'The URL is 46 characters long; the maximum is 40' });
    t.is((await small.get(`/api/v1/nothing-here/${'x'.repeat(40)}`)).status, 414);
    t.is((await small.get('/api/v1/nothing-here')).status, 404);
  } finally {
    await small.close();
  }
});

async function listen(answer: boolean): Promise<{ server: Server; port: number }> {
  const server = createServer(dir.app);
  if (answer) answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends raw bytes and collects whatever comes back until the server closes, or the reset. */
function rawExchange(port: number, bytes: string): Promise<{ text: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ text, error: error.code }));
    socket.on('close', () => resolve({ text }));
    socket.on('connect', () => socket.write(bytes));
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

function parseRaw(text: string): { status: number; contentType?: string; body: unknown } {
  const [head, body] = text.split('\r\n\r\n', 2) as [string, string?];
  const [statusLine, ...headers] = head.split('\r\n');
  const contentType = headers.find((h) => /^content-type:/i.test(h))?.split(': ')[1];
  return { status: Number(statusLine!.split(' ')[1]), contentType, body: body ? JSON.parse(body) : undefined };
}

test.serial('a 20 KB URL gets a JSON:API 431 over a raw socket, not a bare status line or a reset', async (t) => {
  const { server, port } = await listen(true);
  try {
    const exchange = await rawExchange(port, `GET /api/v1/employees?filter[first_name]=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    t.is(exchange.error, undefined);
    const response = parseRaw(exchange.text);
    t.is(response.status, 431);
    t.is(response.contentType, 'application/vnd.api+json');
    t.deepEqual(response.body, {
      errors: [{ status: '431', code: 'headers_too_large', title: 'Request Header Fields Too Large', detail: 'The URL and headers of the request are over 16384 bytes' }],
      jsonapi: { version: '1.1' },
    });
  } finally {
    server.close();
  }
});

test.serial('fetch of a 20 KB URL gets the JSON:API answer', async (t) => {
  const { server, port } = await listen(true);
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/employees?filter[first_name]=${'a'.repeat(20_000)}`);
    t.is(response.status, 431);
    t.is(response.headers.get('content-type'), 'application/vnd.api+json');
    t.like(((await response.json()) as { errors: unknown[] }).errors[0], { code: 'headers_too_large' });
  } finally {
    server.close();
  }
});

test.serial('without answerClientErrors, Node answers the same request with no document at all', async (t) => {
  const { server, port } = await listen(false);
  try {
    const exchange = await rawExchange(port, `GET /api/v1/employees?filter[first_name]=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    t.notRegex(exchange.text, /application\/vnd\.api\+json/);
  } finally {
    server.close();
  }
});

test.serial('bytes that are not HTTP get a JSON:API 400', async (t) => {
  const { server, port } = await listen(true);
  try {
    const response = parseRaw((await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n')).text);
    t.is(response.status, 400);
    t.deepEqual(response.body, {
      errors: [{ status: '400', code: 'malformed_request', title: 'Bad Request', detail: 'The request is not valid HTTP/1.1' }],
      jsonapi: { version: '1.1' },
    });
    const fine = await fetch(`http://127.0.0.1:${port}/api/v1/employees?page[size]=1`);
    t.is(fine.status, 200, 'the server goes on serving');
  } finally {
    server.close();
  }
});

/** A server whose slow-client limits are short enough to test: 300 ms for headers, 600 ms for a whole request, checked every 50 ms. */
async function listenWithLimits(): Promise<{ server: Server; port: number }> {
  const server = limitSlowClients(answerClientErrors(createServer({ connectionsCheckingInterval: 50 }, dir.app)), { headersTimeout: 300, requestTimeout: 600 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends `parts` one by one, `gap` ms apart, then waits for the server's answer and close. */
function trickle(port: number, parts: string[], gap: number): Promise<{ text: string; elapsed: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timers: NodeJS.Timeout[] = [];
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      timers.forEach(clearTimeout);
      resolve({ text, elapsed: Date.now() - started });
    });
    socket.on('connect', () => parts.forEach((part, i) => timers.push(setTimeout(() => socket.writable && socket.write(part), i * gap))));
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

const TIMED_OUT = {
  errors: [{ status: '408', code: 'request_timeout', title: 'Request Timeout', detail: 'The request did not arrive in time: 300 ms are allowed for its URL and headers, 600 ms for all of it' }],
  jsonapi: { version: '1.1' },
};

test.serial('limitSlowClients: headers that stop arriving are cut off with a JSON:API 408 once headersTimeout passes, and the server goes on serving', async (t) => {
  const { server, port } = await listenWithLimits();
  try {
    const stalled = trickle(port, ['GET /api/v1/employees HTTP/1.1\r\n', 'Host: localhost\r\n'], 100);
    t.is((await fetch(`http://127.0.0.1:${port}/api/v1/employees?page[size]=1`)).status, 200, 'other clients are served meanwhile');
    const { text, elapsed } = await stalled;
    const response = parseRaw(text);
    t.is(response.status, 408);
    t.is(response.contentType, 'application/vnd.api+json');
    t.deepEqual(response.body, TIMED_OUT);
    t.true(elapsed >= 300 && elapsed < 2000, `cut off after ${elapsed} ms`);
  } finally {
    server.close();
  }
});

test.serial('limitSlowClients: a body trickled past requestTimeout is cut off with a 408, and nothing is written', async (t) => {
  const { server, port } = await listenWithLimits();
  try {
    const before = await dir.models.Employee.count();
    const body = JSON.stringify(employee('Trickled'));
    const head = `POST /api/v1/employees HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/vnd.api+json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // the headers at once, then the body ten bytes every 150 ms: the whole would take seconds
    const chunks = body.match(/[\s\S]{1,10}/g)!;
    const { text, elapsed } = await trickle(port, [head, ...chunks], 150);
    const response = parseRaw(text);
    t.is(response.status, 408);
    t.deepEqual(response.body, TIMED_OUT);
    t.true(elapsed >= 600 && elapsed < 2500, `cut off after ${elapsed} ms`);
    t.is(await dir.models.Employee.count(), before);
    t.is(await dir.models.Employee.count({ where: { first_name: 'Trickled' } }), 0);
    t.is((await fetch(`http://127.0.0.1:${port}/api/v1/employees?page[size]=1`)).status, 200, 'the server goes on serving');
  } finally {
    server.close();
  }
});

test.serial('limitSlowClients refuses limits that are not positive, or a request limit shorter than the headers\' own', (t) => {
  const server = createServer();
  t.throws(() => limitSlowClients(server, { headersTimeout: 0 }), { instanceOf: RangeError });
  t.throws(() => limitSlowClients(server, { requestTimeout: Number.NaN }), { instanceOf: RangeError });
  t.throws(() => limitSlowClients(server, { headersTimeout: 5000, requestTimeout: 1000 }), { instanceOf: RangeError, message: /longer than requestTimeout/ });
  limitSlowClients(server);
  t.is(server.headersTimeout, 10_000);
  t.is(server.requestTimeout, 30_000);
});
