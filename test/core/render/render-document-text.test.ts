import test from 'ava';
import { parseQueryString, Resource, Types, withContext, type QueryParams } from '../../../core/index.ts';
import { directoryServer } from '../../support/directory-server.ts';

/**
 * HTTP reads send `toJsonapiText()`, the document written straight to text.
 * It must be, byte for byte, `JSON.stringify` of the document `toJsonapi()`
 * builds, whatever the request's shape, guards and values.
 */
declare module '../../../core/types/type-names.ts' {
  interface TypeNames {
    anything: true;
  }
}

const { dir, client } = directoryServer({ name: 'sqlite', url: ':memory:' }, 'render_document_text', 40);

const QUERIES = [
  '',
  'include=positions.department,teams&page[size]=20',
  'include=positions.department,teams,notes,tasks.milestones&page[size]=7&page[number]=2',
  'fields[employees]=first_name,positions&include=positions&fields[positions]=title',
  'fields[employees]=last_name&include=current_position',
  'extra_fields[employees]=vacation_days&sort=-age,id&filter[age][gte]=30',
  'stats[total]=count&stats[age]=average,maximum&page[size]=3',
  'page[size]=4&sort=id&page[after]=',
  'filter[first_name][eq]=nobody-is-called-this',
  'include=tasks&page[size]=50',
];

async function bothForms(resource: typeof Resource, params: QueryParams, query: string) {
  const request = { path: `/api/v1/${resource.type}`, query, action: 'index' as const };
  const object = JSON.stringify({ ...(await resource.all(params, undefined, { request }).toJsonapi()), jsonapi: { version: '1.1' } });
  const text = await resource.all(params, undefined, { request }).toJsonapiText({ jsonapi: { version: '1.1' } });
  return { object, text };
}

for (const admin of [false, true]) {
  test.serial(`${admin ? 'an admin' : 'a guest'}: every index shape writes the bytes JSON.stringify writes`, async (t) => {
    const { EmployeeResource } = dir.resources;
    for (const query of QUERIES) {
      const params = parseQueryString(query.replace('page[after]=', `page[after]=${await firstCursor()}`));
      const { object, text } = await (admin ? withContext({ role: 'admin' }, () => bothForms(EmployeeResource, params, query)) : bothForms(EmployeeResource, params, query));
      t.is(text, object, query);
    }
  });
}

async function firstCursor(): Promise<string> {
  const page = await dir.resources.EmployeeResource.all({ page: { size: 1, after: '' }, sort: 'id' } as QueryParams).cursors;
  return page?.next ?? '';
}

test.serial('polymorphic records, a single record and a related read write the same bytes too', async (t) => {
  const { TaskResource, EmployeeResource, NoteResource } = dir.resources;
  const tasks = await bothForms(TaskResource, { include: 'employee,milestones' }, 'include=employee,milestones');
  t.is(tasks.text, tasks.object);
  const notes = await withContext({ role: 'admin' }, () => bothForms(NoteResource, { include: 'notable' }, 'include=notable'));
  t.is(notes.text, notes.object);
  const show = EmployeeResource.find({ id: '3', include: 'positions' });
  t.is(await show.toJsonapiText(), JSON.stringify(await show.toJsonapi()));
  const missing = EmployeeResource.find({ id: '3' }).related('current_position');
  t.is(await missing.toJsonapiText(), JSON.stringify(await missing.toJsonapi()));
});

test.serial('values that need escaping, and values JSON writes its own way, are written as JSON.stringify writes them', async (t) => {
  const { Employee } = dir.models;
  const names = ['quote " and backslash \\', 'line\nbreak\ttab\u0001', 'emoji 😀 and é', 'para\u2028graph\u2029', '</script>'];
  const ids: number[] = [];
  for (const first_name of names) ids.push((await Employee.create({ first_name, last_name: 'Escape', age: null })).get('id') as number);
  const query = `filter[id]=${ids.join(',')}&include=positions`;
  const { object, text } = await bothForms(dir.resources.EmployeeResource, parseQueryString(query), query);
  t.is(text, object);
  t.deepEqual((JSON.parse(text) as { data: Array<{ attributes: { first_name: string } }> }).data.map((r) => r.attributes.first_name).sort(), [...names].sort());
});

test.serial('attribute blocks answering dates, objects, undefined and non-finite numbers, and names JSON.stringify reorders', async (t) => {
  const { EmployeeResource } = dir.resources;
  // an application's type whose reads pass any value on as it is
  Types.anything = { ...Types.string, canonical_name: 'anything', read: (value: unknown) => value };
  t.teardown(() => void delete Types.anything);
  class Oddities extends EmployeeResource {
    static {
      this.type = 'oddities';
      this.attribute('when', 'anything', { writable: false }, () => new Date(Date.UTC(2024, 4, 6)));
      this.attribute('shape', 'anything', { writable: false }, () => ({ b: 1, a: [1, 'two', null, undefined] }));
      this.attribute('nothing', 'anything', { writable: false }, () => () => 'a function');
      this.attribute('infinite', 'anything', { writable: false }, () => -Infinity);
      this.attribute('negative_zero', 'anything', { writable: false }, () => -0);
    }
  }
  class Reordered extends EmployeeResource {
    static {
      this.type = 'reordered';
      this.attribute('2024', 'integer', { writable: false }, () => 7);
      this.attribute('after', 'integer', { writable: false }, () => 8);
    }
  }
  for (const resource of [Oddities, Reordered] as Array<typeof Resource>) {
    const { object, text } = await bothForms(resource, { page: { size: 3 } }, 'page[size]=3');
    t.is(text, object, resource.type);
  }
});

test.serial('over HTTP, a read answers those bytes with the jsonapi member last', async (t) => {
  const path = '/api/v1/employees?include=positions.department,teams&page[size]=5';
  const response = await client.get(path);
  const { object } = await bothForms(dir.resources.EmployeeResource, parseQueryString(path.split('?')[1]!), path.split('?')[1]!);
  t.is(response.status, 200);
  t.is(response.text, object);
});
