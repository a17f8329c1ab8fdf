import type { IncludeGraph } from '../sideload/include-graph.ts';
import { jsonText, NEEDS_ESCAPE } from './json-text.ts';
import { linkageText } from './resource-linkage.ts';
import { encodePathSegment } from './relationship-link.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { SerializerLayout } from './serializer-layout.ts';

/**
 * Writes one record as JSON text, from `{"id":` to its last member, without
 * the closing brace (the caller may add `temp-id` or `meta` first): what
 * RecordSerializer.serializeText writes, as one straight-line function per
 * layout.
 */
export type RecordWriter = (row: Record<string, unknown>, id: string, graph: IncludeGraph | undefined, resource: ResourceBase) => string;

/** The start of a relationship object that was not included. */
export const NOT_INCLUDED = '{"meta":{"included":false}';

const writers = new WeakMap<SerializerLayout, RecordWriter | null>();

/**
 * The layout's writer, generated once per layout (layouts are cached per
 * Resource, fieldset and guard answers, serializer-layout.ts). A loop over
 * the layout's lists calls every attribute's coercion, and every relationship's
 * links, from one call site: V8 sees a different function there at each step
 * and calls it the slow way. Unrolled, each call site sees one function,
 * which V8 inlines, and each value is a named load from a row of one shape.
 * Rendering PostgreSQL's page of 100 took about a quarter less CPU.
 *
 * Nothing from a request reaches the generated source: it holds string
 * literals written by JSON.stringify and indexes into the layout's own lists.
 * Undefined (the caller loops instead) where the layout cannot be written
 * member by member, or where the process forbids generating code
 * (`--disallow-code-generation-from-strings`).
 */
export function recordWriter(layout: SerializerLayout, type: string): RecordWriter | undefined {
  let writer = writers.get(layout);
  if (writer === undefined) {
    writer = layout.writesText ? generate(layout, type) : null;
    writers.set(layout, writer);
  }
  return writer ?? undefined;
}

function generate(layout: SerializerLayout, type: string): RecordWriter | null {
  const { attributes, relationships } = layout;
  // each function the record's text needs, as a constant of the factory's scope: one call target per call site
  const constants = [
    ...attributes.flatMap((a, i) => [`const read${i} = reads[${i}];`, a.block ? `const block${i} = blocks[${i}];` : '', a.guard ? `const guard${i} = guards[${i}];` : '']),
    ...relationships.map((r, j) => (r.endpoint ? '' : `const links${j} = linksText[${j}];`)),
  ].filter((line) => line !== '');
  // named in profiles and stack traces after its Resource's type
  const sourceUrl = `//# sourceURL=mural-record-writer/${type.replace(/[^\w-]/g, '_')}.js`;
  const source = ['"use strict";', ...constants, 'return function writeRecord(row, id, graph, resource) {', body(layout, type), '};', sourceUrl].join('\n');
  let factory: (...helpers: unknown[]) => RecordWriter;
  try {
    factory = new Function('reads', 'blocks', 'guards', 'linksText', 'escape', 'jsonText', 'linkageText', 'encode', source) as typeof factory;
  } catch {
    return null;
  }
  return factory(
    attributes.map((a) => a.read),
    attributes.map((a) => a.block),
    attributes.map((a) => a.guard),
    relationships.map((r) => r.linksText),
    NEEDS_ESCAPE,
    jsonText,
    linkageText,
    encodePathSegment,
  );
}

const literal = (text: string) => JSON.stringify(text);

function body(layout: SerializerLayout, type: string): string {
  const lines = [
    `let text = ${literal('{"id":')} + (escape.test(id) ? JSON.stringify(id) : '"' + id + '"') + ${literal(`,"type":${JSON.stringify(type)},"attributes":{`)};`,
    'let first = true;',
    'let value;',
    'let written;',
  ];
  layout.attributes.forEach((attribute, i) => lines.push(attributeLines(attribute, i)));
  lines.push("text += '}';");
  if (layout.relationships.length > 0) lines.push(relationshipLines(layout));
  lines.push('return text;');
  return lines.join('\n');
}

/** One attribute: its guard, its value (a property, or its block), its coercion and its text. */
function attributeLines(attribute: SerializerLayout['attributes'][number], i: number): string {
  const name = literal(attribute.name);
  const read = attribute.block === undefined ? `row[${name}]` : `block${i}.call(resource, row, resource)`;
  const write = [
    `value = ${read};`,
    "if (value === null || value === undefined) written = 'null';",
    `else { value = read${i}(value); written = typeof value === 'string' ? (escape.test(value) ? JSON.stringify(value) : '"' + value + '"') : jsonText(value); }`,
    `if (written !== undefined) { text += (first ? ${literal(attribute.key)} : ${literal(attribute.nextKey)}) + written; first = false; }`,
  ].join('\n');
  return attribute.guard === undefined ? write : `if (guard${i}.call(resource, row, ${name})) {\n${write}\n}`;
}

/**
 * The relationships member. Links in the endpoints style (the default) are
 * constant text around the record's id, encoded once for all of them. Which
 * key opens with no comma is known here until a relationship that a
 * sparse fieldset leaves out unless included; from there a flag says.
 */
function relationshipLines(layout: SerializerLayout): string {
  const list = layout.relationships;
  const lines = [
    'const implicit = graph !== undefined && graph.hasImplicit() ? graph.implicitOf(row) : undefined;',
    'let related;',
  ];
  if (list.some((r) => r.endpoint !== undefined)) lines.push('const member = encode(id);');
  let opening: 'first' | 'later' | 'flagged' = 'first';
  const parts: Part[] = [{ text: ',"relationships":{' }];
  list.forEach((relationship, j) => {
    const name = literal(relationship.name);
    const { endpoint } = relationship;
    const links: Part[] = endpoint === undefined
      ? [{ code: `links${j}(row, id)` }]
      : [{ text: endpoint.beforeSelf }, { code: 'member' }, { text: endpoint.beforeRelated }, { code: 'member' }, { text: endpoint.end }];
    if (opening === 'first' && relationship.unlessIncluded) {
      lines.push('let open = true;');
      opening = 'flagged';
    }
    const key: Part[] = opening === 'flagged' ? [{ code: `(open ? ${literal(relationship.key)} : ${literal(relationship.nextKey)})` }] : [{ text: opening === 'first' ? relationship.key : relationship.nextKey }];
    const notIncluded = concatenation([...key, { text: NOT_INCLUDED }, ...links]);
    const included = concatenation([...key, { text: '{"data":' }, { code: 'linkageText(related)' }, { code: `(implicit !== undefined && implicit.has(${name}) ? ${literal(',"meta":{"included":false}')} : '')` }, ...links]);
    if (parts.length > 0) lines.push(`text += ${concatenation(parts.splice(0))};`);
    lines.push(
      `related = graph === undefined ? undefined : graph.relatedTo(row, ${name});`,
      relationship.unlessIncluded ? 'if (related !== undefined) {' : '{',
      `text += related === undefined ? ${notIncluded} : ${included};`,
      opening === 'flagged' ? 'open = false;\n}' : '}',
    );
    if (!relationship.unlessIncluded) opening = 'later';
  });
  lines.push("text += '}';");
  return lines.join('\n');
}

/** A piece of generated text: constant text, or an expression. */
type Part = { readonly text: string } | { readonly code: string };

/** The parts as one expression, neighbouring constants joined here rather than at every record. */
function concatenation(parts: readonly Part[]): string {
  const merged: string[] = [];
  let constant: string | undefined;
  for (const part of parts) {
    if ('text' in part) {
      constant = (constant ?? '') + part.text;
      continue;
    }
    if (constant !== undefined) merged.push(literal(constant));
    constant = undefined;
    merged.push(part.code);
  }
  if (constant !== undefined) merged.push(literal(constant));
  return merged.length === 0 ? "''" : merged.join(' + ');
}
