import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseQueryString, Resource, Types, type QueryParams } from '../../../core/index.ts';
import { directoryServer } from '../../support/directory-server.ts';

/**
 * Documents are written record by record through a function generated per
 * layout (core/render/record-writer.ts). Whatever the layout, its bytes are
 * those JSON.stringify writes for the document toJsonapi() builds; where the
 * process forbids generating code, the serializer's loop writes the same.
 */
declare module '../../../core/types/type-names.ts' {
  interface TypeNames {
    as_is: true;
  }
}

const { dir } = directoryServer({ name: 'sqlite', url: ':memory:' }, 'record_writer', 30);

async function bothForms(resource: typeof Resource, query: string) {
  const params = parseQueryString(query) as QueryParams;
  const request = { path: `/api/v1/${resource.type}`, query, action: 'index' as const };
  const object = JSON.stringify(await resource.all(params, undefined, { request }).toJsonapi());
  const text = await resource.all(params, undefined, { request }).toJsonapiText();
  return { object, text };
}

test.serial('a guard per record that withholds the first attribute, and a first attribute JSON leaves out, keep the commas right', async (t) => {
  Types.as_is = { ...Types.string, canonical_name: 'as_is', read: (value: unknown) => value };
  t.teardown(() => void delete Types.as_is);
  // the application's base Resource: its adapter, its namespace
  const Base = Object.getPrototypeOf(dir.resources.EmployeeResource) as typeof Resource;
  class FirstWithheld extends Base {
    static {
      this.model = dir.models.Employee;
      this.type = 'first_withheld';
      this.attribute('hidden_for_odd', 'as_is', { writable: false, readable: (employee: { id: number }) => employee.id % 2 === 0 }, (employee: { id: number }) => `even ${employee.id}`);
      this.attribute('a_function', 'as_is', { writable: false }, () => () => 'left out');
      this.attribute('first_name', 'string');
      this.attribute('odd_only', 'as_is', { writable: false, readable: (employee: { id: number }) => employee.id % 2 === 1 }, () => 'odd');
    }
  }
  const { object, text } = await bothForms(FirstWithheld, 'page[size]=6&sort=id');
  t.is(text, object);
  const records = (JSON.parse(text) as { data: Array<{ id: string; attributes: Record<string, unknown> }> }).data;
  t.deepEqual(Object.keys(records.find((r) => Number(r.id) % 2 === 1)!.attributes), ['first_name', 'odd_only']);
  t.deepEqual(Object.keys(records.find((r) => Number(r.id) % 2 === 0)!.attributes), ['hidden_for_odd', 'first_name']);
});

test.serial('links in the filters style, relationships a sparse fieldset drops unless included, and linkage loaded only for a nested include', async (t) => {
  const { EmployeeResource, PositionResource } = dir.resources;
  class FilterLinked extends EmployeeResource {
    static {
      this.type = 'filter_linked_employees';
      this.relationshipLinks = 'filters';
    }
  }
  for (const [resource, query] of [
    [FilterLinked, 'include=positions.department&page[size]=5'],
    [EmployeeResource, 'fields[employees]=first_name&include=teams&page[size]=5'],
    [EmployeeResource, 'fields[employees]=first_name,positions&page[size]=5'],
    [PositionResource, 'include=employee.teams&page[size]=5'],
  ] as Array<[typeof Resource, string]>) {
    const { object, text } = await bothForms(resource, query);
    t.is(text, object, `${resource.type}?${query}`);
  }
  const { text } = await bothForms(FilterLinked, 'include=positions&page[size]=1');
  const positions = (JSON.parse(text) as { data: Array<{ relationships: { positions: { links: { related: string } } } }> }).data[0]!.relationships.positions;
  t.regex(positions.links.related, /^\/api\/v1\/positions\?filter\[employee_id\]=\d+$/);
});

test('where the process forbids generating code, the same documents are written', async (t) => {
  const script = fileURLToPath(new URL('../../support/render-without-codegen.ts', import.meta.url));
  const run = (flags: string[]) => promisify(execFile)(process.execPath, [...flags, '--import=tsx', script], { maxBuffer: 16 * 1024 * 1024 });
  const [forbidden, allowed] = await Promise.all([run(['--disallow-code-generation-from-strings']), run([])]);
  const documents = JSON.parse(forbidden.stdout) as { generated: boolean; texts: string[]; objects: string[] };
  t.false(documents.generated);
  t.deepEqual(documents.texts, documents.objects);
  const generated = JSON.parse(allowed.stdout) as typeof documents;
  t.true(generated.generated);
  t.deepEqual(generated.texts, documents.texts);
});
