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
    d.deepEqual(`${c.code.cast('response.body', '{ data: Array<{ id: string }> }')}.data.map((r) => r.id)`, '[id]'),
  )));
  if (has('show')) tests.push(d.test(`GET /${c.type}/:id shows a record`, lines(
    "const response = await request('GET', `${endpoint}/${id}`);",
    d.equal('response.status', '200'),
    d.equal(`${c.code.cast('response.body', '{ data: { id: string } }')}.data.id`, 'id'),
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

/**
 * test/resources/<name>-resource.test.ts: one test per generated action, over
 * HTTP, for the project's test runner. It recreates the generated model's table only, never the application's
 * other tables.
 */
export function resourceTestTemplate(c: TemplateContext): string {
  const { code } = c;
  const { ts } = code;
  const dialect = TEST_DIALECTS[c.testRunner];
  return `${dialect.imports(code)}
${code.import('express', 'express')}
${code.importType(['AddressInfo'], 'node:net')}${code.importType(['Server'], 'node:http')}${code.import([c.className], c.importPath('test', 'model'))}
${code.import([c.resourceClass], c.importPath('test', 'resource'))}
${code.import(['routes'], c.importPath('test', 'routes'))}

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

${dialect.after}(() => new Promise${ts('<void>')}((resolve) => server.close(() => resolve())));

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
