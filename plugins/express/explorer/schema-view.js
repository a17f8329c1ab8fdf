import { guardedBadge, h } from './dom.js';

/** The details of one Resource from the schema: attributes, filters, sorts, stats, extra fields, relationships. */
export function resourceDetails(resource, { path, actions, select }) {
  return [
    resource.description ? h('p', {}, resource.description) : null,
    h('p', {}, h('code', {}, path || '(no index endpoint)'), ' ', actions.map((action) => h('span', { className: 'badge' }, action))),
    attributesTable(resource),
    filtersTable(resource),
    table('Sorts', ['Sort', 'Notes'], Object.entries(resource.sorts).map(([name, sort]) => [name, [sort.only ? `${sort.only} only` : '', sort.guard ? guardedBadge() : null]])),
    table('Stats', ['Stat', 'Calculations'], Object.entries(resource.stats).map(([name, calculations]) => [name, calculations.join(', ')])),
    table('Extra fields', ['Field', 'Type', 'Readable'], Object.entries(resource.extra_attributes).map(([name, extra]) => [name, extra.type, flag(extra.readable)])),
    relationshipsTable(resource, select),
  ];
}

function attributesTable(resource) {
  const rows = Object.entries(resource.attributes).map(([name, a]) => [
    h('span', { title: a.description ?? '' }, name),
    a.type,
    flag(a.readable),
    flag(a.writable),
    [resource.sorts[name] ? 'sort ' : '', resource.filters[name] ? 'filter' : ''],
  ]);
  return table('Attributes', ['Attribute', 'Type', 'Readable', 'Writable', 'Query'], rows, true);
}

function filtersTable(resource) {
  const rows = Object.entries(resource.filters).map(([name, f]) => [
    name,
    f.type,
    f.operators.join(' '),
    [
      f.single ? 'single value ' : '',
      f.required ? 'required ' : '',
      f.allow ? `allow: ${f.allow.join(', ')} ` : '',
      f.deny ? `deny: ${f.deny.join(', ')} ` : '',
      f.dependencies ? `needs: ${f.dependencies.join(', ')} ` : '',
      f.guard ? guardedBadge() : null,
    ],
  ]);
  return table('Filters', ['Filter', 'Type', 'Operators', 'Notes'], rows);
}

function relationshipsTable(resource, select) {
  const rows = Object.entries(resource.relationships).map(([name, r]) => [
    name,
    [r.type, r.guard ? [' ', guardedBadge()] : null],
    (r.resources ?? [r.resource]).map((target) => h('button', { type: 'button', className: 'link', onclick: () => select(target) }, target)),
  ]);
  return table('Relationships', ['Relationship', 'Kind', 'Resource'], rows, true);
}

function flag(value) {
  if (value === 'guarded') return guardedBadge('Readable or writable only when a guard allows it');
  return value ? 'yes' : 'no';
}

/** A titled table that folds away (a summary a keyboard opens), so the query builder stays in view. */
function table(title, headings, rows, open = false) {
  if (rows.length === 0) return h('p', { className: 'empty' }, `${title}: none`);
  return h(
    'details',
    { open, 'data-table': title },
    h('summary', {}, `${title} (${rows.length})`),
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, headings.map((heading) => h('th', { scope: 'col' }, heading)))),
      h('tbody', {}, rows.map(([first, ...cells]) => h('tr', {}, h('th', { scope: 'row' }, first), cells.map((cell) => h('td', {}, cell))))),
    ),
  );
}
