import test from 'ava';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { Sequelize } from 'sequelize';
import { createApp } from '../../../examples/employee-directory/app.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { seed } from '../../../examples/employee-directory/db/seed.ts';
import { buildSchema } from '../../../core/index.ts';
import { launchChromium } from '../../support/browser.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { ADMIN } from '../../support/example-auth.ts';

/**
 * The API explorer in a real browser (Debian's Chromium through
 * playwright-core), against the example application: one browser, one page,
 * the steps a user takes in order.
 */

type Identifier = { type: string; id: string };
type Doc = { data: Array<Identifier & { relationships?: Record<string, { data?: Identifier[] }> }>; included?: Identifier[]; errors?: Array<{ status: string; source?: { parameter?: string } }> };

const SCREENSHOT = 'test-artifacts/explorer.png';
let sequelize: Sequelize;
let client: HttpClient;
let browser: Browser;
let page: Page;
let names: string[];
const problems: string[] = [];

test.before(async () => {
  sequelize = connect(':memory:');
  // Server-Timing as in development, where the explorer shows it
  const { app, models, resources } = createApp(sequelize, { serverTiming: true });
  await sequelize.sync();
  await seed(models);
  names = buildSchema(Object.values(resources)).resources.map((r) => r.name);
  client = await serve(app);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 1300 } });
  // a CSP violation, a failed module or a thrown error all show here
  page.on('console', (message) => void (message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text())));
  // what the page fetched, by URL; the browser's own /favicon.ico is no request of the page's
  page.on('response', (response) => {
    const { pathname, search } = new URL(response.url());
    const expectedFailure = pathname === '/favicon.ico' || (pathname === '/api/v1/employees' && search.includes('=abc'));
    if (response.status() >= 400 && !expectedFailure) problems.push(`${response.status()} ${pathname}${search}`);
  });
  page.on('pageerror', (error) => void problems.push(error.message));
});

test.after.always(async () => {
  await browser?.close();
  await client?.close();
  await sequelize?.close();
});

const api = async (path: string, headers: Record<string, string> = {}) => (await client.get(path, headers)).body as Doc;
const texts = (selector: string) => page.locator(selector).allTextContents();
const ids = (section: 'data' | 'included') =>
  page.locator(`[data-section="${section}"] .record`).evaluateAll((records) => records.map((r) => `${r.getAttribute('data-type')} ${r.getAttribute('data-id')}`));
const guestNames = () => names.filter((name) => name !== 'NoteResource');
const keys = (records: Identifier[] = []) => records.map((r) => `${r.type} ${r.id}`);

async function addFilter(name: string, operator: string, value: string) {
  await page.getByRole('button', { name: 'Add filter' }).click();
  const row = page.locator('[data-part="filters"] .row').last();
  await row.getByLabel('Filter', { exact: true }).selectOption(name);
  await row.getByLabel('Operator', { exact: true }).selectOption(operator);
  await row.getByLabel('Value', { exact: true }).fill(value);
}

test.serial('the page lists every Resource of the namespace and the chosen one\'s attributes, filters and relationships', async (t) => {
  const response = await page.goto(`${client.baseUrl}/api/v1/explorer`);
  t.is(response?.status(), 200);
  await page.locator('nav button[data-resource]').first().waitFor();
  // notes are for admins (NoteResource's guard): a guest is not shown them, as the API answers a guest 403
  t.deepEqual(await page.locator('nav button[data-resource]').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-resource'))), guestNames());
  await page.locator('nav button[data-resource="EmployeeResource"]').click();
  t.is(await page.locator('#resource-title').textContent(), 'employees (EmployeeResource)');
  const attributes = page.locator('[data-table="Attributes"]');
  t.deepEqual(await attributes.locator('tbody th').allTextContents(), ['id', 'first_name', 'last_name', 'age', 'created_at', 'updated_at']);
  const filters = page.locator('[data-table="Filters"]');
  t.regex((await filters.locator('tr', { has: page.locator('th', { hasText: /^age$/ }) }).textContent()) ?? '', /^ageintegereq not_eq gt not_gt gte not_gte lt not_lt lte not_lte$/);
  const relationships = page.locator('[data-table="Relationships"]');
  // notes is guarded: a guest is not shown it, as the API would not serve it
  t.deepEqual(await relationships.locator('tbody th').allTextContents(), ['positions', 'current_position', 'teams', 'tasks']);
});

test.serial('a query with a filter, a sort and an include shows the URL it builds and the records the API returns', async (t) => {
  await addFilter('age', 'gte', '40');
  await page.getByRole('button', { name: 'Add sort' }).click();
  const sort = page.locator('[data-part="sorts"] .row').last();
  await sort.getByLabel('Sort by').selectOption('age');
  await sort.getByLabel('Direction').selectOption('desc');
  await page.locator('[data-part="include"]').getByLabel('positions').check();
  await page.getByLabel('Size').fill('5');
  const url = '/api/v1/employees?filter[age][gte]=40&sort=-age&include=positions&page[size]=5';
  t.is(await page.locator('#built-url').textContent(), url);
  await page.getByRole('button', { name: 'Run query' }).click();
  await page.locator('#result[aria-busy="false"]').waitFor();
  t.is(await page.locator('#status').textContent(), '200 OK');
  t.is(await page.locator('#request-url').textContent(), url);
  const expected = await api(url);
  t.is(expected.data.length, 5);
  t.deepEqual(await ids('data'), keys(expected.data));
  t.deepEqual(await ids('included'), keys(expected.included));
  const ages = await page.locator('[data-section="data"] .record dt:text-is("age") + dd').allTextContents();
  t.deepEqual(ages.map(Number), [...ages.map(Number)].sort((a, b) => b - a));
  t.true(ages.every((age) => Number(age) >= 40));
  mkdirSync('test-artifacts', { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
});

test.serial('an included record is one link away from the relationship that names it', async (t) => {
  const first = (await api('/api/v1/employees?filter[age][gte]=40&sort=-age&include=positions&page[size]=5')).data[0]!;
  const position = first.relationships!.positions!.data![0]!;
  await page.locator('[data-section="data"] .record').first().locator('[data-relationship="positions"] a').first().click();
  t.is(await page.evaluate(() => document.activeElement?.id), `record-positions-${position.id}`);
  t.is(await page.locator(':focus').getAttribute('data-section'), null);
  t.is(await page.locator(`[data-section="included"] #record-positions-${position.id}`).count(), 1);
});

test.serial('following a relationship runs its related endpoint', async (t) => {
  const first = (await api('/api/v1/employees?filter[age][gte]=40&sort=-age&include=positions&page[size]=5')).data[0]!;
  await page.locator('[data-section="data"] .record').first().locator('[data-relationship="positions"] button').click();
  const url = `/api/v1/employees/${first.id}/positions`;
  await page.locator('#result[aria-busy="false"] #request-url', { hasText: new RegExp(`^${url}$`) }).waitFor();
  t.is(await page.locator('#status').textContent(), '200 OK');
  t.deepEqual(await ids('data'), keys((await api(url)).data));
  t.true((await ids('data')).length > 0);
});

test.serial('a bad value shows the 400 error document, pointing at the parameter', async (t) => {
  await page.locator('nav button[data-resource="EmployeeResource"]').click();
  await addFilter('age', 'eq', 'abc');
  // from the keyboard: Enter in the value submits the query
  await page.locator('[data-part="filters"] .row').last().getByLabel('Value', { exact: true }).press('Enter');
  await page.locator('#result[aria-busy="false"] #status.failed').waitFor();
  t.is(await page.locator('#status').textContent(), '400 Bad Request');
  t.is(await page.locator('#request-url').textContent(), '/api/v1/employees?filter[age][eq]=abc');
  const alert = page.getByRole('alert');
  t.regex((await alert.textContent()) ?? '', /Error document \(1 error\)/);
  t.deepEqual(await alert.locator('dt:text-is("parameter") + dd').allTextContents(), ['filter[age][eq]']);
  t.is((await api('/api/v1/employees?filter[age][eq]=abc')).errors?.[0]?.source?.parameter, 'filter[age][eq]');
});

test.serial('a related filter (filter[has]) and a related sort build the URL the README writes, and the API answers it', async (t) => {
  await page.locator('nav button[data-resource="EmployeeResource"]').click();
  await page.getByRole('button', { name: 'Add related filter' }).click();
  const row = page.locator('[data-part="filters"] .row.related').last();
  await row.getByLabel('Related filter', { exact: true }).selectOption('positions.department.name');
  await row.getByLabel('Operator', { exact: true }).selectOption('prefix');
  await row.getByLabel('Value', { exact: true }).fill('Eng');
  await page.getByRole('button', { name: 'Add related filter' }).click();
  const without = page.locator('[data-part="filters"] .row.related').last();
  await without.getByLabel('Records with', { exact: true }).selectOption('has_no');
  await without.getByLabel('Related filter', { exact: true }).selectOption('teams.name');
  await without.getByLabel('Operator', { exact: true }).selectOption('eq');
  await without.getByLabel('Value', { exact: true }).fill('Platform');
  await page.getByRole('button', { name: 'Add sort' }).click();
  await page.locator('[data-part="sorts"] .row').last().getByLabel('Sort by').selectOption('current_position.title');
  const url = '/api/v1/employees?filter[has][positions.department.name][prefix]=Eng&filter[has_no][teams.name][eq]=Platform&sort=current_position.title';
  t.is(await page.locator('#built-url').textContent(), url);
  await page.getByRole('button', { name: 'Run query' }).click();
  await page.locator('#result[aria-busy="false"]').waitFor();
  t.is(await page.locator('#status').textContent(), '200 OK');
  const expected = await api(url);
  t.true(expected.data.length > 0, 'the seed has such employees');
  t.deepEqual(await ids('data'), keys(expected.data));
});

test.serial('by cursor: the first page asks for page[after]=, and next follows the cursor the API returned', async (t) => {
  await page.locator('nav button[data-resource="EmployeeResource"]').click();
  await page.getByRole('button', { name: 'Add sort' }).click();
  const sort = page.locator('[data-part="sorts"] .row').last();
  await sort.getByLabel('Sort by').selectOption('age');
  await sort.getByLabel('Direction').selectOption('desc');
  await page.getByLabel('Size').fill('2');
  await page.getByLabel('By cursor', { exact: false }).check();
  const url = '/api/v1/employees?sort=-age&page[size]=2&page[after]=';
  t.is(await page.locator('#built-url').textContent(), url);
  await page.getByRole('button', { name: 'Run query' }).click();
  await page.locator('#result[aria-busy="false"]').waitFor();
  const first = await api(url) as Doc & { links: { next: string } };
  t.deepEqual(await ids('data'), keys(first.data));
  await page.locator('nav.pages').getByRole('button', { name: 'next' }).click();
  await page.locator('#result[aria-busy="false"]').waitFor();
  t.is(await page.locator('#request-url').textContent(), first.links.next);
  t.regex(first.links.next, /page\[after\]=[^&]+/);
  t.is(await page.locator('#status').textContent(), '200 OK');
  t.deepEqual(await ids('data'), keys((await api(first.links.next)).data));
  t.notDeepEqual(await ids('data'), keys(first.data));
});

test.serial('the diagram draws every Resource; guarded relationships appear, marked, only to whom the guard allows', async (t) => {
  const diagram = page.locator('#diagram-image svg');
  const drawn = () => diagram.locator('[data-resource]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-resource')).sort());
  t.deepEqual(await drawn(), guestNames());
  t.is(await diagram.locator('[data-guarded]').count(), 0);
  await page.getByLabel(/Request headers/).fill(`Authorization: ${ADMIN.Authorization}`);
  await page.getByRole('button', { name: 'Apply headers' }).click();
  await diagram.locator('[data-guarded]').first().waitFor();
  t.deepEqual(await diagram.locator('[data-guarded]').evaluateAll((edges) => edges.map((e) => e.getAttribute('data-edge'))), ['EmployeeResource.notes']);
  t.deepEqual(await drawn(), names);
  t.true(await page.locator('nav button[data-resource="NoteResource"]').isVisible());
  const attributes = page.locator('[data-table="Attributes"]');
  t.regex((await attributes.locator('tr', { has: page.locator('th', { hasText: 'salary' }) }).textContent()) ?? '', /guarded/);
});

test.serial('through a polymorphic belongs_to, the explorer offers the filters every Resource it leads to takes, and the API answers them', async (t) => {
  // the admin headers the test before applied let this user see notes
  await page.locator('nav button[data-resource="NoteResource"]').click();
  await page.getByRole('button', { name: 'Add related filter' }).click();
  const row = page.locator('[data-part="filters"] .row.related').last();
  const offered = await row.getByLabel('Related filter', { exact: true }).locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  t.deepEqual(offered, ['notable.id', 'notable.name']);
  await row.getByLabel('Related filter', { exact: true }).selectOption('notable.name');
  t.deepEqual(await row.getByLabel('Operator', { exact: true }).locator('option').allTextContents(), ['eq', 'prefix']);
  await row.getByLabel('Operator', { exact: true }).selectOption('prefix');
  await row.getByLabel('Value', { exact: true }).fill('A');
  const url = '/api/v1/notes?filter[has][notable.name][prefix]=A';
  t.is(await page.locator('#built-url').textContent(), url);
  await page.getByRole('button', { name: 'Run query' }).click();
  await page.locator('#result[aria-busy="false"]').waitFor();
  t.is(await page.locator('#status').textContent(), '200 OK');
  const expected = await api(url, ADMIN);
  t.true(expected.data.length > 0, 'the seed has notes on something whose name starts with A');
  t.deepEqual(await ids('data'), keys(expected.data));
});

test.serial('the Server-Timing of each answer shows under the request: each database operation and the total', async (t) => {
  await page.locator('nav button[data-resource="TeamResource"]').click();
  await page.getByRole('button', { name: 'Run query' }).click();
  await page.locator('#result[aria-busy="false"]').waitFor();
  const timings = page.locator('#timings');
  t.true(await timings.isVisible());
  await timings.locator('summary').click();
  const rows = await timings.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  t.deepEqual(rows.map(([name, what]) => `${name} ${what}`).filter((row) => row !== 'db teams count'), [`db teams resolve, ${(await api('/api/v1/teams')).data.length} records`, 'total Mural']);
  t.true(rows.every(([, , ms]) => /^\d+\.\d\d$/.test(ms ?? '')));
});

test.serial('every control has a label, and the tables and rows are reachable from the keyboard', async (t) => {
  const unlabelled = await page.locator('input, select, textarea').evaluateAll((controls) =>
    controls.filter((c) => ((c as HTMLInputElement).labels?.length ?? 0) === 0 && !c.getAttribute('aria-label')).map((c) => c.outerHTML));
  t.deepEqual(unlabelled, []);
  // the inline diagram brings ids of its own: none may shadow the page's
  const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((element) => element.id));
  t.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), []);
  await page.getByRole('button', { name: 'Add sort' }).focus();
  await page.keyboard.press('Enter');
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'sort');
  await page.locator('[data-part="sorts"] .row').last().getByRole('button', { name: 'Remove this sort' }).press('Enter');
  t.is(await page.locator('[data-part="sorts"] .row').count(), 0);
  t.is(await page.evaluate(() => document.activeElement?.textContent), 'Add sort');
  const filters = page.locator('[data-table="Filters"]');
  t.false(await filters.evaluate((d) => (d as HTMLDetailsElement).open));
  await filters.locator('summary').press('Enter');
  t.true(await filters.evaluate((d) => (d as HTMLDetailsElement).open));
});

test.serial('the page ran without a script error or a Content-Security-Policy violation', (t) => {
  t.deepEqual(problems, []);
});
