import type { TemplateContext } from '../commands/host/template.ts';
import { TEST_DIALECTS, type TestDialect } from './test-dialect.ts';

const SAMPLES: Record<string, [string, string]> = {
  string: ["'first'", "'second'"], uuid: ["'0f8fad5b-d9cb-469f-a165-70867728950e'", "'7c9e6679-7425-40de-944b-e07fc1f90ae7'"],
  integer: ['1', '2'], float: ['1.5', '2.5'], big_decimal: ["'1.5'", "'2.5'"], boolean: ['true', 'false'],
  date: ["'2020-01-01'", "'2021-02-02'"], datetime: ["'2020-01-01T00:00:00.000Z'", "'2021-02-02T00:00:00.000Z'"],
};

function sample(type: string, which: 0 | 1): string {
  return (SAMPLES[type] ?? SAMPLES.string!)[which];
}

function actionTests(c: TemplateContext, d: TestDialect): string[] {
  const attrs = (which: 0 | 1) => `{ ${c.attributes.map((a) => `${a.name}: ${sample(a.type, which)}`).join(', ')} }`;
  const has = (action: string) => c.actions.includes(action);
  const lines = (...body: string[]) => body.map((line) => `  ${line}`).join('\n');
  const tests: string[] = [];
  if (has('create')) tests.push(d.test(`POST /${c.type} creates a record`, lines(
    `const response = await request('POST', endpoint, { data: { type: '${c.type}', attributes: ${attrs(0)} } });`,
    d.equal('response.status', '201'),
    d.equal(`await ${c.className}.count()`, '1'),
  )));
  tests.push(d.test('seed a record for the read tests', lines(
    `await ${c.className}.destroy({ where: {} });`,
    `const record = await ${c.className}.create(${attrs(0)});`,
    "id = String(record.get('id'));",
    d.truthy('id'),
  )));
  if (has('index')) tests.push(d.test(`GET /${c.type} lists records`, lines(
    "const response = await request('GET', endpoint);",
    d.equal('response.status', '200'),
    d.deepEqual(`${c.testCode.cast('response.body', '{ data: Array<{ id: string }> }')}.data.map((r) => r.id)`, '[id]'),
  )));
  if (has('show')) tests.push(d.test(`GET /${c.type}/:id shows a record`, lines(
    "const response = await request('GET', `${endpoint}/${id}`);",
    d.equal('response.status', '200'),
    d.equal(`${c.testCode.cast('response.body', '{ data: { id: string } }')}.data.id`, 'id'),
  )));
  if (has('update')) tests.push(d.test(`PATCH /${c.type}/:id updates a record`, lines(
    `const response = await request('PATCH', \`\${endpoint}/\${id}\`, { data: { type: '${c.type}', id, attributes: ${attrs(1)} } });`,
    d.equal('response.status', '200'),
  )));
  if (has('destroy')) tests.push(d.test(`DELETE /${c.type}/:id destroys a record`, lines(
    "const response = await request('DELETE', `${endpoint}/${id}`);",
    d.equal('response.status', '200'),
    d.equal(`await ${c.className}.count()`, '0'),
  )));
  return tests;
}

/** The environment variable naming the database generated tests run against, in Sequelize's URL form. */
export const TEST_DATABASE_VARIABLE = 'MURAL_TEST_DATABASE_URL';

/**
 * The test's own database. Importing the model bound it to the application's
 * connection (`Model.init` runs when its module loads); binding it again, to
 * this connection, before any query is what keeps `sync({ force: true })`
 * away from the development database, whatever the application's database
 * module reads (a generated model is always `class … extends Model` with
 * `init`, so `init` again is the whole rebinding).
 */
function testDatabase(c: TemplateContext): string {
  const variable = `process.env.${TEST_DATABASE_VARIABLE}`;
  return `// The tests' own database: ${TEST_DATABASE_VARIABLE} (a Sequelize URL), else an in-memory SQLite database.
// Never the application's: ${c.className} is bound to it here, before any query, so recreating its table touches nothing else.
if (${variable} && ${variable} === process.env.DATABASE_URL) {
  throw new Error('${TEST_DATABASE_VARIABLE} is DATABASE_URL: these tests drop and recreate tables; give them a database of their own');
}
const database = ${variable}
  ? new Sequelize(${variable}, { logging: false })
  : new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
${c.className}.init(${c.className}.getAttributes(), { ...${c.className}.options, sequelize: database });`;
}

/**
 * The application's modules the test uses. An ES module test of a CommonJS
 * application (Vitest's) requires them as the application does: Vitest
 * would load an imported copy of its own, and the Resource, which requires
 * the model, would not see the model bound to the test database.
 */
function applicationImports(c: TemplateContext): string {
  const required = c.code.moduleFormat === 'commonjs' && c.testCode.moduleFormat === 'esm';
  const code = required ? c.code : c.testCode;
  const lines = [
    code.import([c.className], c.importPath('test', 'model')),
    code.import([c.resourceClass], c.importPath('test', 'resource')),
    code.import(['routes'], c.importPath('test', 'routes')),
  ];
  if (required) lines.unshift(`${c.testCode.import(['createRequire'], 'node:module')}\nconst require = createRequire(import.meta.url);`);
  return lines.join('\n');
}

/**
 * test/resources/<name>-resource.test.ts: one test per generated action, over
 * HTTP, for the project's test runner, against a database of its own.
 */
export function resourceTestTemplate(c: TemplateContext): string {
  const code = c.testCode;
  const { ts } = code;
  const dialect = TEST_DIALECTS[c.testRunner];
  return `${dialect.imports(code)}
${code.import('express', 'express')}
${code.import(['Sequelize'], 'sequelize')}
${code.importType(['AddressInfo'], 'node:net')}${code.importType(['Server'], 'node:http')}${applicationImports(c)}

${testDatabase(c)}

// where the routes serve ${c.type}, under the namespace of its base Resource if there is one
const endpoint = \`\${${c.resourceClass}.endpointNamespace ?? ''}\${${c.resourceClass}.endpoint.path}\`;
let server${ts(': Server')};
let base = '';
let id = '';

${dialect.before}(async () => {
  await ${c.className}.sync({ force: true });
  server = express().use(routes).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = \`http://127.0.0.1:\${${code.cast('server.address()', 'AddressInfo')}.port}\`;
});

${dialect.after}(async () => {
  await new Promise${ts('<void>')}((resolve) => server.close(() => resolve()));
  await database.close();
});

async function request(method${ts(': string')}, path${ts(': string')}, body${ts('?: unknown')})${ts(': Promise<{ status: number; body: unknown }>')} {
  const response = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/vnd.api+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

${actionTests(c, dialect).join('\n\n')}
`;
}
