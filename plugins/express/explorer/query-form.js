import { h } from './dom.js';
import { relatedFilters, relatedSorts } from './related-paths.js';

let rowId = 0;

/**
 * The query builder's controls for one Resource. Every control has a label;
 * rows are added and removed with buttons, so a keyboard does everything.
 * `read(form)` turns the controls back into the query `queryUrl` takes.
 */
export function queryControls(resource, resources) {
  const filters = Object.entries(resource.filters);
  const related = relatedFilters(resources, resource);
  const sorts = [...Object.keys(resource.sorts), ...relatedSorts(resources, resource)];
  const readable = Object.entries(resource.attributes).filter(([, a]) => a.readable !== false).map(([name]) => name);
  return [
    h('fieldset', { 'data-part': 'filters' }, h('legend', {}, 'Filters'), h('div', { className: 'rows' }),
      filters.length > 0 ? h('button', { type: 'button', onclick: (e) => addRow(e, () => filterRow(filters)) }, 'Add filter') : h('p', { className: 'empty' }, 'none'),
      related.length > 0 ? h('button', { type: 'button', onclick: (e) => addRow(e, () => relatedFilterRow(related)) }, 'Add related filter') : null),
    h('fieldset', { 'data-part': 'sorts' }, h('legend', {}, 'Sort'), h('div', { className: 'rows' }),
      sorts.length > 0 ? h('button', { type: 'button', onclick: (e) => addRow(e, () => sortRow(sorts)) }, 'Add sort') : h('p', { className: 'empty' }, 'none')),
    checkboxes('Include', 'include', Object.keys(resource.relationships)),
    checkboxes(`Fields (fields[${resource.type}]; none checked: all)`, 'fields', readable),
    checkboxes(`Extra fields (extra_fields[${resource.type}])`, 'extra', Object.keys(resource.extra_attributes)),
    checkboxes('Stats', 'stats', Object.entries(resource.stats).flatMap(([name, calculations]) => calculations.map((c) => `${name}:${c}`))),
    h('fieldset', { 'data-part': 'page' }, h('legend', {}, 'Page'),
      h('label', {}, 'Number ', h('input', { name: 'page-number', type: 'number', min: '1', inputmode: 'numeric' })),
      h('label', {}, 'Size ', h('input', { name: 'page-size', type: 'number', min: '1', inputmode: 'numeric', placeholder: String(resource.default_page_size) })),
      // an empty page[after] enters cursor pagination; the answer's next and prev links carry the cursors
      h('label', { className: 'check' }, h('input', { type: 'checkbox', name: 'page-cursor', onchange: (event) => {
        const number = event.target.form.elements['page-number'];
        number.disabled = event.target.checked;
        if (event.target.checked) number.value = '';
      } }), ' By cursor (page[after]; follow next and prev)')),
    h('button', { type: 'submit', className: 'primary' }, 'Run query'),
  ];
}

/** The query the controls hold. */
export function readQuery(form) {
  const rows = (part, which = '') => [...form.querySelectorAll(`[data-part="${part}"] .row${which}`)];
  const checked = (name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((input) => input.value);
  return {
    filters: rows('filters', ':not(.related)').map((row) => ({ name: value(row, 'filter'), operator: value(row, 'operator'), value: value(row, 'value') })),
    related: rows('filters', '.related').map((row) => ({ negated: value(row, 'has') === 'has_no', path: value(row, 'filter'), operator: value(row, 'operator'), value: value(row, 'value') })),
    sorts: rows('sorts').map((row) => ({ name: value(row, 'sort'), descending: value(row, 'direction') === 'desc' })),
    include: checked('include'),
    fields: checked('fields'),
    extraFields: checked('extra'),
    stats: checked('stats').map((pair) => ({ name: pair.slice(0, pair.indexOf(':')), calculation: pair.slice(pair.indexOf(':') + 1) })),
    page: { number: form.elements['page-number'].value, size: form.elements['page-size'].value, cursor: form.elements['page-cursor'].checked },
  };
}

function value(row, name) {
  return row.querySelector(`[name="${name}"]`).value;
}

function addRow(event, make) {
  const rows = event.target.closest('fieldset').querySelector('.rows');
  const row = make();
  rows.append(row);
  row.querySelector('select, input').focus();
  row.closest('form').dispatchEvent(new Event('input', { bubbles: true }));
}

function removeButton(what) {
  return h('button', { type: 'button', className: 'remove', 'aria-label': `Remove this ${what}`, onclick: (event) => {
    const form = event.target.closest('form');
    const fieldset = event.target.closest('fieldset');
    event.target.closest('.row').remove();
    fieldset.querySelector(':scope > button').focus();
    form.dispatchEvent(new Event('input', { bubbles: true }));
  } }, '×');
}

function filterRow(filters) {
  const id = ++rowId;
  const choices = filters.map(([name, filter]) => ({ name, type: filter.type, operators: filter.operators }));
  return h('div', { className: 'row' }, filterControls(id, 'Filter', choices), removeButton('filter'));
}

/** `filter[has]` / `filter[has_no]`: parents by whether one related record matches. */
function relatedFilterRow(related) {
  const id = ++rowId;
  return h('div', { className: 'row related' },
    h('label', { for: `has-${id}` }, 'Records with'),
    h('select', { name: 'has', id: `has-${id}` }, h('option', { value: 'has' }, 'a related record (has)'), h('option', { value: 'has_no' }, 'no related record (has_no)')),
    filterControls(id, 'Related filter', related),
    removeButton('related filter'));
}

/** A filter's select (`{ name, type, operators }` choices), the chosen one's operators, and the value. */
function filterControls(id, label, choices) {
  const operator = h('select', { name: 'operator', id: `operator-${id}` });
  const fillOperators = (name) => operator.replaceChildren(...choices.find((c) => c.name === name).operators.map((op) => h('option', {}, op)));
  const filter = h('select', { name: 'filter', id: `filter-${id}`, onchange: (event) => fillOperators(event.target.value) },
    choices.map((c) => h('option', { value: c.name }, `${c.name} (${c.type})`)));
  fillOperators(choices[0].name);
  return [
    h('label', { for: `filter-${id}` }, label), filter,
    h('label', { for: `operator-${id}` }, 'Operator'), operator,
    h('label', { for: `value-${id}` }, 'Value'), h('input', { name: 'value', id: `value-${id}`, type: 'text', autocomplete: 'off' }),
  ];
}

function sortRow(sorts) {
  const id = ++rowId;
  return h('div', { className: 'row' },
    h('label', { for: `sort-${id}` }, 'Sort by'), h('select', { name: 'sort', id: `sort-${id}` }, sorts.map((name) => h('option', {}, name))),
    h('label', { for: `direction-${id}` }, 'Direction'),
    h('select', { name: 'direction', id: `direction-${id}` }, h('option', { value: 'asc' }, 'ascending'), h('option', { value: 'desc' }, 'descending')),
    removeButton('sort'));
}

function checkboxes(legend, name, values) {
  return h('fieldset', { 'data-part': name }, h('legend', {}, legend),
    values.length === 0 ? h('p', { className: 'empty' }, 'none') : values.map((v) => h('label', { className: 'check' }, h('input', { type: 'checkbox', name, value: v }), ` ${v.replace(':', ' ')}`)));
}
