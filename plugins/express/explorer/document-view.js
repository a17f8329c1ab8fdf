import { h } from './dom.js';

/**
 * A JSON:API response as a reader wants it: records with their attributes
 * and relationships (an included record is one link away, a related
 * endpoint one button away), included records, meta, pagination; an error
 * document as a list of errors; the raw document last.
 */
export function documentView(document, { follow }) {
  if (document === undefined) return [h('p', {}, 'No document (the response has no body).')];
  if (Array.isArray(document.errors)) return [errorsView(document.errors), raw(document)];
  const data = document.data === null ? [] : Array.isArray(document.data) ? document.data : document.data ? [document.data] : [];
  const included = Array.isArray(document.included) ? document.included : [];
  const known = new Set(included.map((record) => key(record)));
  return [
    h('h3', {}, `Records (${data.length})`),
    h('div', { className: 'records', 'data-section': 'data' }, data.map((record) => recordView(record, known, follow))),
    included.length > 0 ? h('h3', {}, `Included (${included.length})`) : null,
    included.length > 0 ? h('div', { className: 'records', 'data-section': 'included' }, included.map((record) => recordView(record, known, follow))) : null,
    metaView(document.meta),
    paginationView(document.links, follow),
    raw(document),
  ];
}

function errorsView(errors) {
  return h(
    'div',
    { className: 'errors', role: 'alert' },
    h('h3', {}, `Error document (${errors.length} ${errors.length === 1 ? 'error' : 'errors'})`),
    h('ul', {}, errors.map((error) => h(
      'li',
      { className: 'error' },
      h('strong', {}, `${error.status ?? ''} ${error.title ?? ''}`),
      error.detail ? h('p', {}, error.detail) : null,
      h('dl', {}, pairs([
        ['code', error.code],
        ['parameter', error.source?.parameter],
        ['pointer', error.source?.pointer],
        ['header', error.source?.header],
      ])),
    ))),
  );
}

function recordView(record, known, follow) {
  const relationships = Object.entries(record.relationships ?? {});
  return h(
    'article',
    { className: 'record', id: anchor(record), tabindex: '-1', 'data-type': record.type, 'data-id': record.id },
    h('h4', {}, `${record.type} ${record.id}`),
    h('dl', {}, pairs(Object.entries(record.attributes ?? {}).map(([name, value]) => [name, show(value)]))),
    relationships.length > 0 ? h('h5', {}, 'Relationships') : null,
    relationships.length > 0 ? h('dl', { className: 'relationships' }, relationships.flatMap(([name, relationship]) => [
      h('dt', {}, name),
      h('dd', { 'data-relationship': name }, linkage(relationship.data, known), relatedButton(name, relationship.links?.related, follow)),
    ])) : null,
  );
}

/** The related records' identifiers: a link to each one the document includes. */
function linkage(data, known) {
  if (data === undefined) return null;
  const identifiers = data === null ? [] : Array.isArray(data) ? data : [data];
  if (identifiers.length === 0) return h('span', { className: 'empty' }, data === null ? 'none ' : 'empty ');
  return identifiers.map((identifier) => known.has(key(identifier))
    ? h('a', { href: `#${anchor(identifier)}`, className: 'identifier', onclick: (event) => focusRecord(event, identifier) }, `${identifier.type} ${identifier.id}`)
    : h('span', { className: 'identifier' }, `${identifier.type} ${identifier.id}`));
}

function relatedButton(name, related, follow) {
  if (!related) return null;
  const url = typeof related === 'string' ? related : related.href;
  return h('button', { type: 'button', className: 'follow', 'aria-label': `Open ${name}: GET ${url}`, onclick: () => follow(url) }, 'Open');
}

function focusRecord(event, identifier) {
  const target = document.getElementById(anchor(identifier));
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: 'nearest' });
  target.focus();
}

function metaView(meta) {
  if (!meta || Object.keys(meta).length === 0) return null;
  return [h('h3', {}, 'Meta'), h('pre', { className: 'meta' }, JSON.stringify(meta, null, 2))];
}

function paginationView(links, follow) {
  if (!links) return null;
  const names = ['first', 'prev', 'next', 'last'].filter((name) => typeof links[name] === 'string');
  if (names.length === 0) return null;
  return h('nav', { 'aria-label': 'Pages', className: 'pages' }, names.map((name) => h('button', { type: 'button', onclick: () => follow(links[name]) }, name)));
}

function raw(document) {
  return h('details', {}, h('summary', {}, 'Raw document'), h('pre', {}, JSON.stringify(document, null, 2)));
}

function pairs(entries) {
  return entries.filter(([, value]) => value !== undefined).flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, value)]);
}

function show(value) {
  return value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function key(identifier) {
  return `${identifier.type}\u0000${identifier.id}`;
}

function anchor(identifier) {
  return `record-${identifier.type}-${identifier.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
}
