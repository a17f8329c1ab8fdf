import { breadthFirst } from '../query/include-tree.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import type { StatsResult } from '../read/run-stats.ts';
import { recordCursor } from '../read/page-cursors.ts';
import { asksPermissions, permissionsOf } from '../rules/permissions.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { IncludeGraph, LoadedRecord } from '../sideload/include-graph.ts';
import type { JsonApiDocument, PaginationLinks } from './document.ts';
import { RecordSerializer, type RecordExtras, type ResourceObject } from './record-serializer.ts';

type ResourceClass = typeof ResourceBase;

export interface RenderInput {
  plan: QueryPlan;
  records: readonly LoadedRecord[];
  single: boolean;
  stats: StatsResult;
  graph: IncludeGraph;
  links?: PaginationLinks;
  /** Records created by a write, by the temp-id the client gave them. */
  tempIds?: WeakMap<object, string>;
}

/**
 * render: loaded records → a JSON:API document. `included` lists each related
 * record once, breadth first along the include tree, never repeating primary data.
 */
export function renderDocument(input: RenderInput): JsonApiDocument {
  const { data, included } = renderRecords(input, (serializer, record, id, extras) => serializer.serialize(record, id, extras));
  const document: JsonApiDocument = { data: input.single ? (data[0] ?? null) : data, meta: documentMeta(input) };
  if (included.length > 0) document.included = included;
  if (input.links) document.links = input.links;
  return document;
}

/**
 * `JSON.stringify(renderDocument(input))`, with each record written straight
 * to text: no object tree to build and walk again. `trailing` members (a
 * transport's `jsonapi`) follow the document's own, as they would after a spread.
 */
export function renderDocumentText(input: RenderInput, trailing?: Record<string, unknown>): string {
  const { data, included } = renderRecords(input, (serializer, record, id, extras) => serializer.serializeText(record, id, extras));
  let text = `{"data":${input.single ? (data[0] ?? 'null') : `[${commaSeparated(data)}]`},"meta":${JSON.stringify(documentMeta(input))}`;
  if (included.length > 0) text += `,"included":[${commaSeparated(included)}]`;
  if (input.links) text += `,"links":${JSON.stringify(input.links)}`;
  if (trailing) {
    for (const name of Object.keys(trailing)) {
      const value = JSON.stringify(trailing[name]);
      if (value !== undefined) text += `,${JSON.stringify(name)}:${value}`;
    }
  }
  return `${text}}`;
}

/**
 * The texts, comma-separated, as a concatenation rather than a join: a join
 * copies every record's text into a new string, and the transport copies
 * the document once more when it writes or hashes it. Concatenated, that
 * write is the only copy.
 */
function commaSeparated(texts: readonly string[]): string {
  let text = '';
  for (let i = 0; i < texts.length; i++) text += i === 0 ? texts[i]! : `,${texts[i]!}`;
  return text;
}

type WriteRecord<T> = (serializer: RecordSerializer, record: object, id: string, extras: RecordExtras | undefined) => T;

/** The primary records and the included ones, each rendered once by `write`, in document order. */
function renderRecords<T>(input: RenderInput, write: WriteRecord<T>): { data: T[]; included: T[] } {
  const { plan, graph } = input;
  const serializers = new Map<ResourceClass, RecordSerializer>();
  const serializerOf = (resource: ResourceClass): RecordSerializer => {
    let serializer = serializers.get(resource);
    if (!serializer) {
      serializer = new RecordSerializer(new resource(), plan.fields.get(resource.type), plan.extraFields.get(resource.type), graph);
      serializers.set(resource, serializer);
    }
    return serializer;
  };
  // ids already rendered, by type: a record reached twice is rendered once
  const seen = new Map<string, Set<string>>();
  const firstSight = (type: string, id: string): boolean => {
    let ids = seen.get(type);
    if (!ids) seen.set(type, (ids = new Set()));
    if (ids.has(id)) return false;
    ids.add(id);
    return true;
  };
  const keyset = input.single ? undefined : plan.page?.keyset;
  const extrasOf = (record: object, primary: boolean, resource: ResourceClass): RecordExtras | undefined => {
    const tempId = input.tempIds?.get(record);
    // the cursor profile's item cursors: a client may page on from any record of a cursor page
    const cursor = primary && keyset ? recordCursor(keyset, record) : undefined;
    const permissions = plan.metaFields && asksPermissions(plan, resource.type) ? permissionsOf(resource, record) : undefined;
    return tempId || cursor !== undefined || permissions ? { tempId, cursor, permissions } : undefined;
  };
  // primary records are noted only so that included ones do not repeat them
  const includes = plan.include.length > 0;
  const data = input.records.map(({ record, resource }) => {
    const serializer = serializerOf(resource);
    const id = serializer.idOf(record);
    if (includes) firstSight(serializer.type, id);
    return write(serializer, record, id, extrasOf(record, true, resource));
  });
  const included: T[] = [];
  for (const node of breadthFirst(plan.include)) {
    if (node.implicit) continue;
    for (const { record, resource } of graph.loaded(node)) {
      const serializer = serializerOf(resource);
      const id = serializer.idOf(record);
      if (firstSight(serializer.type, id)) included.push(write(serializer, record, id, extrasOf(record, false, resource)));
    }
  }
  return { data, included };
}

function documentMeta(input: RenderInput): Record<string, unknown> {
  const stats = { ...input.stats, ...input.graph.stats };
  return Object.keys(stats).length > 0 ? { stats } : {};
}
