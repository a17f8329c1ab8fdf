import test from 'ava';
import { request } from 'node:http';
import { connect as connectSocket } from 'node:net';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { eventually, spawnDirectoryServer, sqliteFileUrl } from '../../support/child-server.ts';

/** The example server as a process: health checks and a SIGTERM that drops nothing. */
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

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const expired = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

test('GET /health: 200 with the database reachable', async (t) => {
  const server = await spawnDirectoryServer(sqliteFileUrl());
  try {
    const response = await fetch(`${server.baseUrl}/health`);
    t.is(response.status, 200);
    t.deepEqual(await response.json(), { meta: { status: 'ok', database: 'reachable' }, jsonapi: { version: '1.1' } });
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('SIGTERM: the in-flight request completes, new connections are refused and the process exits 0', async (t) => {
  const url = sqliteFileUrl();
  const server = await spawnDirectoryServer(url);
  t.teardown(() => server.child.kill('SIGKILL'));
  const body = JSON.stringify({
    data: {
      type: 'employees', attributes: { first_name: 'Grace', last_name: 'Hopper', age: 40 },
      relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p1', method: 'create' }] } },
    },
    included: [{ type: 'positions', 'temp-id': 'p1', attributes: { title: 'Rear Admiral' } }],
  });
  // the request is in flight once the server has read its headers (its 100 Continue says so) and waits for the body
  const post = request({
    host: '127.0.0.1', port: server.port, method: 'POST', path: '/api/v1/employees',
    headers: { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const answered = new Promise<{ status?: number; text: string }>((resolve, reject) => {
    post.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => void (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    post.on('error', reject);
  });
  const continued = new Promise((resolve) => post.once('continue', resolve));
  post.flushHeaders();
  await within(continued, 30_000, '100 Continue');

  server.child.kill('SIGTERM');
  await eventually(() => refused(server.port), 10_000, 'new connections refused after SIGTERM');
  post.end(body);
  const response = await within(answered, 30_000, 'the in-flight request');
  t.is(response.status, 201, server.output());
  t.like(JSON.parse(response.text), { data: { type: 'employees', attributes: { first_name: 'Grace' } } });
  t.deepEqual(await within(server.exited, 15_000, 'exit after SIGTERM'), { code: 0, signal: null }, server.output());

  const sequelize = connect(url);
  try {
    const [rows] = await sequelize.query(
      "SELECT COUNT(*) AS n FROM positions JOIN employees ON employees.id = positions.employee_id WHERE employees.first_name = 'Grace'",
    );
    t.is(Number((rows as Array<{ n: number }>)[0]!.n), 1, 'the request finished after SIGTERM was written whole');
  } finally {
    await sequelize.close();
  }
});
