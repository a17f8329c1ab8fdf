/**
 * The types users of `mural/express` get: the README's HTTP and production
 * examples compile, and each mistake below stays a compile error. Only
 * compiled, never run (see core.test-d.ts).
 */
import type { Server } from 'node:http';
import express, { type Request, type Response, type Router } from 'express';
import { expectTypeOf } from 'expect-type';
import { DataTypes, Model, Sequelize, type CreationOptional, type InferAttributes, type InferCreationAttributes } from 'sequelize';
import { Resource, type MuralContext } from 'mural';
import {
  answerClientErrors, gracefulShutdown, JSONAPI_MEDIA_TYPE, limitSlowClients, muralHealth, muralRouter, sendError,
  type ExplorerDocument, type MuralOpenApiOptions, type MuralRouterOptions,
} from 'mural/express';
import { SequelizeAdapter } from 'mural/sequelize';

const sequelize = new Sequelize('sqlite::memory:', { logging: false });

class Employee extends Model<InferAttributes<Employee>, InferCreationAttributes<Employee>> {
  declare id: CreationOptional<number>;
  declare first_name: string;
}
Employee.init({ id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, first_name: DataTypes.STRING }, { sequelize });

class EmployeeResource extends Resource {
  declare static model: typeof Employee;
  static {
    this.adapter = SequelizeAdapter;
    this.endpointNamespace = '/api/v1';
    this.model = Employee;
    this.attribute('first_name', 'string');
  }
}

class PositionResource extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.type = 'positions';
  }
}

// HTTP (README)
const app = express();
const router = muralRouter({
  resources: [EmployeeResource, PositionResource],
  context: (req) => ({ role: req.header('X-Role') }),
});
expectTypeOf(router).toEqualTypeOf<Router>();
app.use(router);
app.use(muralRouter({
  resources: [EmployeeResource],
  context: async (req: Request): Promise<MuralContext> => ({ userId: Number(req.header('X-User')) }),
  development: process.env.NODE_ENV === 'development',
  bodyLimit: '1mb',
  maxUrlLength: 8192,
}));
app.use(muralRouter({ resources: [], bodyLimit: 1_048_576 }));

// OpenAPI (README)
app.use(muralRouter({ resources: [EmployeeResource], openapi: true }));
app.use(muralRouter({ resources: [EmployeeResource], explorer: process.env.NODE_ENV !== 'production' }));
app.use(muralRouter({ resources: [EmployeeResource], serverTiming: true }));
app.use(muralRouter({ resources: [EmployeeResource], serverTiming: (req) => req.header('X-Role') === 'admin' }));
// @ts-expect-error the per-request choice is a yes or no
app.use(muralRouter({ resources: [EmployeeResource], serverTiming: (req: Request) => req.header('X-Role') }));
expectTypeOf<ExplorerDocument['mount']>().toEqualTypeOf<string>();
const openapi: MuralOpenApiOptions = { path: '/docs/openapi.json', info: { title: 'Directory', version: '1.0.0', description: 'Employees.' } };
app.use(muralRouter({ resources: [EmployeeResource], openapi }));

// Running in production (README)
app.get('/health', muralHealth({ check: () => sequelize.query('SELECT 1') }));
app.get('/ready', muralHealth({ check: () => sequelize.authenticate(), timeout: 500 }));
const server = app.listen(process.env.PORT ?? 3000);
expectTypeOf(answerClientErrors(server)).toEqualTypeOf<Server>();
expectTypeOf(limitSlowClients(server, { headersTimeout: 10_000, requestTimeout: 30_000 })).toEqualTypeOf<Server>();
const shutdown = gracefulShutdown(server, { close: () => sequelize.close(), timeout: 10_000 });
expectTypeOf(shutdown).toEqualTypeOf<() => Promise<number>>();
gracefulShutdown(server, { signals: [], exit: (code) => console.log(code) });

app.use((error: unknown, _req: Request, res: Response, _next: express.NextFunction) => sendError(res, error, false));
expectTypeOf(JSONAPI_MEDIA_TYPE).toExtend<string>();

const options: MuralRouterOptions = { resources: [EmployeeResource] };
muralRouter(options);

// Mistakes that must not compile

// @ts-expect-error a misspelt option
muralRouter({ resource: [EmployeeResource] });
// @ts-expect-error resources are Resource classes
muralRouter({ resources: [Employee] });
// @ts-expect-error resources are classes, not instances
muralRouter({ resources: [new EmployeeResource()] });
// @ts-expect-error the context function returns the context (an object)
muralRouter({ resources: [EmployeeResource], context: (req: Request) => req.header('X-Role') });
// @ts-expect-error maxUrlLength is a number of characters
muralRouter({ resources: [EmployeeResource], maxUrlLength: '8k' });
// @ts-expect-error explorer is on or off, not a path
muralRouter({ resources: [EmployeeResource], explorer: '/explorer' });
// @ts-expect-error openapi is true or its options, not a path
muralRouter({ resources: [EmployeeResource], openapi: '/openapi.json' });
// @ts-expect-error the document's info needs a version
muralRouter({ resources: [EmployeeResource], openapi: { info: { title: 'Directory' } } });
// @ts-expect-error development is a boolean
muralRouter({ resources: [EmployeeResource], development: 'yes' });
// @ts-expect-error the health check is a function returning a promise
muralHealth({ check: sequelize });
// @ts-expect-error a misspelt option
gracefulShutdown(server, { timout: 10_000 });
// @ts-expect-error signals are signal names
gracefulShutdown(server, { signals: ['TERM'] });
