import test from 'ava';
import express from 'express';
import type { Sequelize } from 'sequelize';
import { muralRouter } from '../../../plugins/express/index.ts';
import { openDatabase } from '../../support/databases.ts';
import { serve } from '../../support/http.ts';
import { definePeople, personResource } from '../../support/people.ts';

let sequelize: Sequelize;
let People: ReturnType<typeof personResource>;

test.before(async () => {
  sequelize = await openDatabase({ name: 'sqlite', url: ':memory:' }, 'errors');
  People = personResource(await definePeople(sequelize));
});
test.after.always(async () => {
  await sequelize?.close();
});

class Exploding extends Error {}

function explodingResource(base: typeof People) {
  return class Broken extends base {
    static {
      this.type = 'broken';
    }
    override resolve(): Promise<unknown[]> {
      throw new Exploding('SELECT secret FROM passwords failed');
    }
  };
}

test('an unexpected error is a generic 500: no message, stack or SQL', async (t) => {
  const app = express().use(muralRouter({ resources: [explodingResource(People)], development: false }));
  const client = await serve(app);
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (e: unknown) => void errors.push(e);
  try {
    const response = await client.get('/broken');
    t.is(response.status, 500);
    t.deepEqual(response.body, {
      errors: [{ status: '500', code: 'internal_server_error', title: 'Internal Server Error', detail: 'The server could not complete the request.' }],
      jsonapi: { version: '1.1' },
    });
    t.notRegex(response.text, /secret|passwords|at /);
    t.true(errors[0] instanceof Exploding, 'the server log keeps the real error');
  } finally {
    console.error = original;
    await client.close();
  }
});

test('development mode shows the exception and its backtrace', async (t) => {
  const app = express().use(muralRouter({ resources: [explodingResource(People)], development: true }));
  const client = await serve(app);
  try {
    const response = await client.get('/broken');
    t.is(response.status, 500);
    const [error] = (response.body as { errors: Array<{ meta: { exception: string; backtrace: string[] } }> }).errors;
    t.is(error!.meta.exception, 'SELECT secret FROM passwords failed');
    t.true(error!.meta.backtrace.length > 0);
  } finally {
    await client.close();
  }
});

test('links are absolute when baseUrl is set', async (t) => {
  class Absolute extends People {
    static {
      this.type = 'people';
      this.baseUrl = 'https://api.example.com';
      this.endpointNamespace = '/v2';
    }
  }
  const client = await serve(express().use(muralRouter({ resources: [Absolute] })));
  try {
    const body = (await client.get('/v2/people?page[size]=4')).body as { links: Record<string, string> };
    t.is(body.links.next, 'https://api.example.com/v2/people?page[number]=2&page[size]=4');
  } finally {
    await client.close();
  }
});

test('paginationLinks = false leaves links out', async (t) => {
  class NoLinks extends People {
    static {
      this.type = 'people';
      this.paginationLinks = false;
    }
  }
  const client = await serve(express().use(muralRouter({ resources: [NoLinks] })));
  try {
    const body = (await client.get('/people')) .body as Record<string, unknown>;
    t.false('links' in body);
  } finally {
    await client.close();
  }
});

test('validateEndpoints refuses a Resource reached through a URL it is not allowlisted for', async (t) => {
  class Strict extends People {
    static {
      this.type = 'people';
      this.validateEndpoints = true;
      this.primaryEndpoint('/people', ['index']);
    }
  }
  await t.notThrowsAsync(Strict.all({}, undefined, { request: { path: '/people', query: '', action: 'index' } }).data);
  const wrongPath = await t.throwsAsync(Strict.all({}, undefined, { request: { path: '/humans', query: '', action: 'index' } }).data);
  t.like(wrongPath, { status: 404, code: 'invalid_endpoint' });
  const wrongAction = await t.throwsAsync(Strict.find({ id: 1 }, undefined, { request: { path: '/people/1', query: '', action: 'show' } }).data);
  t.like(wrongAction, { status: 404, code: 'invalid_endpoint' });
});

test('the context of one request never leaks into a concurrent one', async (t) => {
  class Slow extends People {
    static {
      this.type = 'people';
      this.attribute('name', 'string', function (this: { context?: Record<string, unknown> }) {
        return String(this.context?.user);
      });
    }
    override async resolve(scope: unknown) {
      await new Promise((r) => setTimeout(r, this.context?.user === 'first' ? 40 : 0));
      return super.resolve(scope);
    }
  }
  const app = express().use(muralRouter({ resources: [Slow], context: (req) => ({ user: req.header('X-User') }) }));
  const client = await serve(app);
  try {
    const [first, second] = await Promise.all([
      client.get('/people/1?fields[people]=name', { 'X-User': 'first' }),
      client.get('/people/1?fields[people]=name', { 'X-User': 'second' }),
    ]);
    t.is((first.body as { data: { attributes: { name: string } } }).data.attributes.name, 'first');
    t.is((second.body as { data: { attributes: { name: string } } }).data.attributes.name, 'second');
  } finally {
    await client.close();
  }
});
