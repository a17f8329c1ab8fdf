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

test('a polymorphic belongs_to offers the filters every Resource it leads to takes, with the operators all of them accept, and goes no further', (t) => {
  const filters = relatedFilters(schema.resources, resource('notes'));
  // departments, employees and teams all filter id alike; employees' name filter (a custom one) takes only eq and prefix
  t.deepEqual(filters, [
    { name: 'notable.id', type: 'integer_id', operators: resource('departments').filters.id!.operators },
    { name: 'notable.name', type: 'string', operators: ['eq', 'prefix'] },
  ]);
  t.deepEqual(relatedSorts(schema.resources, resource('notes')), [], 'the server refuses a related sort through it');
});

test('through a polymorphic belongs_to, a filter one of its Resources lacks or types otherwise is not offered', (t) => {
  const notes = resource('notes');
  const withoutTeams = schema.resources.filter((r) => r.type !== 'teams');
  t.deepEqual(relatedFilters(withoutTeams, notes), [], 'a Resource this user may not see: no path at all');
  const retyped = schema.resources.map((r) => (r.type === 'teams' ? { ...r, filters: { ...r.filters, name: { type: 'integer', operators: ['eq'] } } } : r));
  t.deepEqual(relatedFilters(retyped, notes).map((f) => f.name), ['notable.id']);
});

test('related sorts follow belongs_to and has_one only, to sortable attributes', (t) => {
  const sorts = relatedSorts(schema.resources, resource('positions'));
  t.true(sorts.includes('department.name'));
  t.true(sorts.includes('employee.last_name'));
  t.false(sorts.some((name) => name.startsWith('employee.positions')), 'has_many is not a related sort');
  t.deepEqual(relatedSorts(schema.resources, resource('departments')), [], 'departments have no to-one relationship');
});
