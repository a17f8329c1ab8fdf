import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Request } from 'express';
import { SignJWT } from 'jose';
import { requestContext } from '../../../examples/employee-directory/auth/request-context.ts';
import { signToken, tokenKey, TokenKeyError } from '../../../examples/employee-directory/auth/tokens.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';
import { testDatabases } from '../../support/databases.ts';
import { serve, type HttpClient } from '../../support/http.ts';

/**
 * The example's authentication: bearer tokens signed and checked with jose
 * (HS256), `npm run token` printing one for a seeded user, the request
 * context built from the verified token; anything else sent as
 * credentials is a 401, and the old `X-Role` stand-in is read nowhere.
 */
const run = promisify(execFile);

async function npmToken(...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'token', '--', ...args], { env: { ...process.env, NODE_ENV: 'development', MURAL_TOKEN_SECRET: '' } });
  return stdout;
}

const fakeRequest = (headers: Record<string, string>) => ({ header: (name: string) => headers[Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase()) ?? ''] }) as unknown as Request;

test('npm run token prints one line: a token the server accepts, for a seeded user of the role asked', async (t) => {
  const admin = await npmToken('--role', 'admin');
  t.regex(admin, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);
  t.deepEqual(await requestContext(fakeRequest({ Authorization: `Bearer ${admin.trim()}` })), { role: 'admin', user: { id: 1 } });
  const guest = (await npmToken('--role', 'guest', '--company', '2')).trim();
  t.deepEqual(await requestContext(fakeRequest({ Authorization: `Bearer ${guest}` })), { role: 'guest', user: { id: 2, companyId: 2 } });
  const refused = await run('npm', ['run', '--silent', 'token', '--', '--role', 'root']).catch((error: { code: number; stderr: string }) => error);
  t.is((refused as { code: number }).code, 2);
  t.regex((refused as { stderr: string }).stderr, /--role must be admin or guest/);
});

test('anything sent as credentials that is not a token of this app is a 401, never a guest', async (t) => {
  const key = tokenKey({});
  const good = await signToken({ role: 'admin', userId: 1 }, key);
  const [header, payload, signature] = good.split('.');
  const forged = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
  const otherKey = await signToken({ role: 'admin', userId: 1 }, new TextEncoder().encode('some other key of thirty-two characters or more'));
  const expired = await new SignJWT({ role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setIssuer('employee-directory').setAudience('employee-directory-api').setIssuedAt(1).setExpirationTime(2).sign(key);
  const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
  const wrongShape = await new SignJWT({ role: 'root' }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setIssuer('employee-directory').setAudience('employee-directory-api').setExpirationTime('1h').sign(key);
  for (const [what, value] of Object.entries({ forged, otherKey, expired, unsigned, wrongShape, basic: 'Basic YWRtaW46YWRtaW4=', empty: 'Bearer ' })) {
    const authorization = what === 'basic' || what === 'empty' ? value : `Bearer ${value}`;
    await t.throwsAsync(requestContext(fakeRequest({ Authorization: authorization })), { name: 'Unauthorized' }, what);
  }
});

test('without a token: a guest, whatever else the request says', async (t) => {
  t.deepEqual(await requestContext(fakeRequest({})), {});
  t.deepEqual(await requestContext(fakeRequest({ 'X-Role': 'admin' })), {}, 'the header that once stood in for authentication grants nothing');
});

test('production does not sign or check tokens without a key of its own', (t) => {
  t.throws(() => tokenKey({ NODE_ENV: 'production' }), { instanceOf: TokenKeyError });
  t.throws(() => tokenKey({ MURAL_TOKEN_SECRET: 'short' }), { instanceOf: TokenKeyError });
  t.notThrows(() => tokenKey({ NODE_ENV: 'production', MURAL_TOKEN_SECRET: 'x'.repeat(32) }));
});

for (const db of testDatabases('authentication')) {
  let dir: Directory;
  let http: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'authentication', 5);
    http = await serve(dir.app);
  });
  test.after.always(async () => {
    await http?.close();
    await dir?.sequelize.close();
  });

  // fetch rather than the suite's client, which holds answers to the OpenAPI document: a 401 comes from the app's own context function
  test(`${db.name}: over HTTP, the admin's token shows salaries, a guest's does not, and a bad one is a 401 with WWW-Authenticate`, async (t) => {
    const salaryOf = async (headers: Record<string, string>) => {
      const response = await fetch(`${http.baseUrl}/api/v1/employees/1`, { headers });
      t.is(response.status, 200);
      return ((await response.json()) as { data: { attributes: Record<string, unknown> } }).data.attributes.salary;
    };
    t.is(typeof (await salaryOf({ Authorization: `Bearer ${await signToken({ role: 'admin', userId: 1 })}` })), 'string');
    t.is(await salaryOf({ Authorization: `Bearer ${await signToken({ role: 'guest', userId: 2 })}` }), undefined);
    t.is(await salaryOf({}), undefined);
    const refused = await fetch(`${http.baseUrl}/api/v1/employees/1`, { headers: { Authorization: 'Bearer not.a.token' } });
    t.is(refused.status, 401);
    t.is(refused.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    const body = (await refused.json()) as { errors: Array<{ code: string; source: unknown }> };
    t.like(body.errors[0], { code: 'unauthorized', source: { header: 'Authorization' } });
  });
}
