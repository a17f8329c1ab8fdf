import test from 'ava';
import express from 'express';
import { connect as connectSocket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { gracefulShutdown } from '../../../plugins/express/index.ts';

/** gracefulShutdown, started by hand (no signals): what clients and the database pool see. */
async function listen(app: express.Express): Promise<{ server: Server; url: string; port: number }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, port };
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectSocket(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** A route that answers when the test says so: a request that is really in flight. */
function gatedApp(events: string[] = []) {
  let open!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const app = express();
  app.get('/slow', async (_req, res) => {
    arrived();
    await gate;
    res.json({ done: true });
    events.push('answered');
  });
  app.get('/fast', (_req, res) => void res.json({ fast: true }));
  return { app, open: () => open(), arrival };
}

test('an in-flight request finishes; new connections are refused meanwhile; close runs after it', async (t) => {
  const events: string[] = [];
  const { app, open, arrival } = gatedApp(events);
  const { server, url, port } = await listen(app);
  const shutdown = gracefulShutdown(server, { signals: [], close: () => void events.push('closed') });
  // an idle kept-alive connection must not hold the shutdown up
  t.is((await fetch(`${url}/fast`)).status, 200);
  const slow = fetch(`${url}/slow`).then(async (r) => {
    return { status: r.status, body: await r.json(), connection: r.headers.get('connection') };
  });
  await arrival;
  const done = shutdown().then((code) => {
    events.push('shut down');
    return code;
  });
  t.true(await refused(port));
  t.deepEqual(events, []);
  open();
  t.deepEqual(await slow, { status: 200, body: { done: true }, connection: 'close' });
  t.is(await done, 0);
  t.deepEqual(events, ['answered', 'closed', 'shut down']);
  t.is(shutdown(), shutdown(), 'calling it again returns the same shutdown');
});

test('requests still running after the timeout are cut, and the shutdown completes', async (t) => {
  const { app, arrival } = gatedApp();
  const { server, url } = await listen(app);
  let closed = false;
  const shutdown = gracefulShutdown(server, { signals: [], timeout: 200, close: () => void (closed = true) });
  const slow = fetch(`${url}/slow`).then(
    (r) => r.status,
    (error: Error) => error.name,
  );
  await arrival;
  t.is(await shutdown(), 0);
  t.true(closed);
  t.is(await slow, 'TypeError', 'the client sees its connection closed');
});

test.serial('a failing close makes the exit code 1', async (t) => {
  const { server } = await listen(express());
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  try {
    const shutdown = gracefulShutdown(server, { signals: [], close: () => Promise.reject(new Error('pool already closed')) });
    t.is(await shutdown(), 1);
  } finally {
    console.error = original;
  }
  t.is(errors.length, 1);
});

test.serial('a close that never finishes ends the shutdown with code 1 after the timeout', async (t) => {
  const { server } = await listen(express());
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  // a pool waiting on a connection that is never given back: a handle open, a promise never settled
  const held = setInterval(() => undefined, 1000);
  try {
    const shutdown = gracefulShutdown(server, { signals: [], timeout: 200, close: () => new Promise(() => undefined) });
    const started = Date.now();
    t.is(await shutdown(), 1);
    t.true(Date.now() - started < 2000);
  } finally {
    clearInterval(held);
    console.error = original;
  }
  t.regex(String((errors[0] as unknown[])[1]), /close did not finish within 200 ms/);
});
