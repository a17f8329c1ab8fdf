import test from 'ava';
import { readFileSync } from 'node:fs';

/** What the explorer offers for `filter[has]` and related sorts, read from the example application's schema. */

interface SchemaResource {
  name: string;
  type: string;
  relationships: Record<string, { type: string; resource?: string }>;
  filters: Record<string, { type: string; operators: string[] }>;
  sorts: Record<string, object>;
  attributes: Record<string, object>;
}
type Module = {
  relatedFilters(resources: SchemaResource[], resource: SchemaResource): Array<{ name: string; type: string; operators: string[] }>;
  relatedSorts(resources: SchemaResource[], resource: SchemaResource): string[];
};

// a computed specifier: the module has no declarations, and is imported untyped on purpose
const specifier = new URL('../../../../plugins/express/explorer/related-paths.js', import.meta.url).href;
const { relatedFilters, relatedSorts } = (await import(specifier)) as Module;

const schema = JSON.parse(readFileSync(new URL('../../../../examples/employee-directory/schema.json', import.meta.url), 'utf8')) as { resources: SchemaResource[] };
const resource = (type: string) => schema.resources.find((r) => r.type === type)!;

test('related filters: every filter of every Resource one or two relationships away, typed, with its operators', (t) => {
  const filters = relatedFilters(schema.resources, resource('employees'));
  const names = filters.map((f) => f.name);
  for (const name of ['positions.title', 'positions.department.name', 'teams.name', 'current_position.active']) t.true(names.includes(name), name);
  t.deepEqual(filters.find((f) => f.name === 'positions.department.name'), { ...resource('departments').filters.name!, name: 'positions.department.name' });
});

test('related filters never lead back to a Resource already on the path, nor past two relationships', (t) => {
  const names = relatedFilters(schema.resources, resource('employees')).map((f) => f.name);
  t.false(names.some((name) => name.startsWith('positions.employee.')), 'positions.employee leads back to employees');
  t.true(names.every((name) => name.split('.').length <= 3));
});

test('a polymorphic belongs_to names several Resources and is left out', (t) => {
  t.deepEqual(relatedFilters(schema.resources, resource('notes')), []);
});

test('related sorts follow belongs_to and has_one only, to sortable attributes', (t) => {
  const sorts = relatedSorts(schema.resources, resource('positions'));
  t.true(sorts.includes('department.name'));
  t.true(sorts.includes('employee.last_name'));
  t.false(sorts.some((name) => name.startsWith('employee.positions')), 'has_many is not a related sort');
  t.deepEqual(relatedSorts(schema.resources, resource('departments')), [], 'departments have no to-one relationship');
});
