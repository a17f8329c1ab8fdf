import test from 'ava';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { RouteTable } from '../../../plugins/express/route-table.ts';
import { serve } from '../../support/http.ts';

/**
 * The table that routes every Resource endpoint matches paths as Express 5
 * routes did, so moving the endpoints off Express's route list changed no
 * answer: each case below is also asked of the same route declared the
 * Express way, and both must answer alike.
 */
const answer = (name: string): RequestHandler => (req, res) => void res.json({ route: name, params: { ...req.params } });

function declare(add: (method: 'get' | 'post' | 'patch' | 'delete', path: string, handlers: RequestHandler[]) => void): void {
  add('get', '/api/v1/employees', [answer('index')]);
  add('get', '/api/v1/employees/:id', [answer('show')]);
  add('patch', '/api/v1/employees/:id', [answer('update')]);
  add('get', '/api/v1/employees/:id/relationships/:relationship', [answer('linkage')]);
  add('get', '/api/v1/employees/:id/:relationship', [answer('related')]);
  // declared after a route that also matches `/api/v1/employees/mine`: the first one added wins
  add('get', '/api/v1/employees/mine', [answer('never')]);
  add('get', '/people', [answer('people')]);
}

async function apps() {
  const table = new RouteTable();
  declare((method, path, handlers) => table.add(method, path, handlers));
  const tabledRouter = express.Router();
  tabledRouter.use(table.dispatch);
  tabledRouter.use(table.options);
  // Express answers OPTIONS when a router's stack runs out: both tables sit in a router of their own, as in muralRouter
  const routedRouter = express.Router();
  declare((method, path, handlers) => routedRouter[method](path, ...handlers));
  const [tabled, routed] = [express(), express()];
  for (const [app, router] of [[tabled, tabledRouter], [routed, routedRouter]] as const) {
    app.use(router);
    app.use((req: Request, res: Response) => void res.status(404).json({ unmatched: req.path }));
    app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => void res.status(error.status ?? 500).json({ error: error.name }));
  }
  return { tabled: await serve(tabled), routed: await serve(routed) };
}

const { tabled, routed } = await apps();
test.after.always(async () => {
  await tabled.close();
  await routed.close();
});

const cases: Array<[string, string]> = [
  ['GET', '/api/v1/employees'],
  ['GET', '/api/v1/employees/'],
  ['GET', '/API/V1/Employees'],
  ['GET', '/api/v1/employees//'],
  ['GET', '/api/v1/employees/12'],
  ['GET', '/api/v1/employees/mine'],
  ['GET', '/api/v1/employees/caf%C3%A9'],
  ['GET', '/api/v1/employees/%FF'],
  ['GET', '/api/v1/employees//positions'],
  ['GET', '/api/v1/employees/12/positions'],
  ['GET', '/api/v1/employees/12/relationships/positions'],
  ['GET', '/api/v1/employees/12/relationships'],
  ['GET', '/api/v1/employees/12/relationships/positions/extra'],
  ['GET', '/api/v1/employees?filter[id]=1'],
  ['GET', '/api/v1'],
  ['GET', '/'],
  ['PATCH', '/api/v1/employees/12'],
  ['POST', '/api/v1/employees/12'],
  ['DELETE', '/api/v1/employees'],
  ['HEAD', '/api/v1/employees/12'],
  ['GET', '/people'],
];

for (const [method, path] of cases) {
  test(`${method} ${path} answers as the Express route does`, async (t) => {
    const [mine, theirs] = await Promise.all([tabled.request(method, path), routed.request(method, path)]);
    t.is(mine.status, theirs.status);
    t.deepEqual(mine.body, theirs.body);
  });
}

test('the first route added that matches wins, and parameters are decoded', async (t) => {
  t.deepEqual((await tabled.request('GET', '/api/v1/employees/mine')).body, { route: 'show', params: { id: 'mine' } });
  t.deepEqual((await tabled.request('GET', '/api/v1/employees/caf%C3%A9/relationships/positions')).body, {
    route: 'linkage',
    params: { id: 'café', relationship: 'positions' },
  });
});

test('a malformed escape in a parameter is a 400 URIError, as Express raises it', async (t) => {
  const response = await tabled.request('GET', '/api/v1/employees/%FF');
  t.is(response.status, 400);
  t.deepEqual(response.body, { error: 'URIError' });
});

test('OPTIONS on a routed path lists its methods, as Express does', async (t) => {
  const [mine, theirs] = await Promise.all([tabled.request('OPTIONS', '/api/v1/employees/3'), routed.request('OPTIONS', '/api/v1/employees/3')]);
  t.is(mine.status, 200);
  t.is(mine.headers.get('allow'), 'GET, HEAD, PATCH');
  t.is(mine.headers.get('allow'), theirs.headers.get('allow'));
  t.is((await tabled.request('OPTIONS', '/nowhere')).status, 404);
});

test('a handler passes on with next(), and a thrown error or a rejection reaches the error handler', async (t) => {
  const table = new RouteTable();
  const mark: RequestHandler = (_req, res, next) => {
    res.setHeader('X-Passed', 'yes');
    next();
  };
  table.add('get', '/throws', [mark, () => {
    throw Object.assign(new Error('thrown'), { status: 418 });
  }]);
  table.add('get', '/rejects', [mark, async () => Promise.reject(Object.assign(new Error('rejected'), { status: 409 }))]);
  table.add('get', '/passes', [mark, (_req, _res, next) => next()]);
  const app = express();
  app.use(table.dispatch);
  app.use((_req: Request, res: Response) => void res.status(404).json({ unmatched: true }));
  app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => void res.status(error.status ?? 500).json({ error: error.message }));
  const client = await serve(app);
  try {
    const thrown = await client.request('GET', '/throws');
    t.is(thrown.status, 418);
    t.is(thrown.headers.get('x-passed'), 'yes');
    t.deepEqual((await client.request('GET', '/rejects')).body, { error: 'rejected' });
    t.deepEqual((await client.request('GET', '/passes')).body, { unmatched: true });
  } finally {
    await client.close();
  }
});
