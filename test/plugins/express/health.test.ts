import test from 'ava';
import express from 'express';
import { Sequelize } from 'sequelize';
import { muralHealth } from '../../../plugins/express/index.ts';
import { serve } from '../../support/http.ts';

/** muralHealth: what a load balancer sees when the database answers, fails or hangs. */
function silenced<T>(fn: () => Promise<T>): Promise<T> {
  const original = console.error;
  console.error = () => undefined;
  return fn().finally(() => (console.error = original));
}

test.serial('200 with status and database in meta when the check succeeds; never cached', async (t) => {
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  const client = await serve(express().get('/health', muralHealth({ check: () => sequelize.query('SELECT 1') })));
  const response = await fetch(`${client.baseUrl}/health`);
  t.is(response.status, 200);
  t.is(response.headers.get('cache-control'), 'no-store');
  t.regex(response.headers.get('content-type') ?? '', /^application\/vnd\.api\+json/);
  t.deepEqual(await response.json(), { meta: { status: 'ok', database: 'reachable' }, jsonapi: { version: '1.1' } });
  await client.close();
  await sequelize.close();
});

test.serial('503 with Retry-After when the database refuses connections, without the driver message', async (t) => {
  // nothing listens on port 1: the driver's ECONNREFUSED, as with a database that is down
  const sequelize = new Sequelize('postgres://nobody@127.0.0.1:1/none', { logging: false, pool: { acquire: 5000 } });
  const client = await serve(express().get('/health', muralHealth({ check: () => sequelize.query('SELECT 1') })));
  const response = await silenced(() => client.get('/health'));
  t.is(response.status, 503);
  t.like((response.body as { errors: object[] }).errors[0], { status: '503', code: 'database_unreachable' });
  t.notRegex(response.text, /ECONNREFUSED|127\.0\.0\.1|SELECT/);
  await client.close();
  await sequelize.close();
});

test.serial('503 when the check hangs past the timeout', async (t) => {
  const client = await serve(express().get('/health', muralHealth({ check: () => new Promise(() => undefined), timeout: 100 })));
  const started = Date.now();
  const response = await silenced(() => fetch(`${client.baseUrl}/health`));
  t.is(response.status, 503);
  t.is(response.headers.get('retry-after'), '1');
  t.true(Date.now() - started < 10_000, 'answers instead of hanging');
  await client.close();
});
