import { breadthFirst } from '../query/include-tree.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import type { StatsResult } from '../read/run-stats.ts';
import { recordCursor } from '../read/page-cursors.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { IncludeGraph, LoadedRecord } from '../sideload/include-graph.ts';
import type { JsonApiDocument, PaginationLinks } from './document.ts';
import { RecordSerializer, type ResourceObject } from './record-serializer.ts';

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
  const serialize = (serializer: RecordSerializer, record: object, id: string): ResourceObject => {
    const object = serializer.serialize(record, id);
    const tempId = input.tempIds?.get(record);
    if (tempId) object['temp-id'] = tempId;
    return object;
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
  const data = input.records.map(({ record, resource }) => {
    const serializer = serializerOf(resource);
    const id = serializer.idOf(record);
    firstSight(serializer.type, id);
    const object = serialize(serializer, record, id);
    // the cursor profile's item cursors: a client may page on from any record of a cursor page
    if (keyset) object.meta = { page: { cursor: recordCursor(keyset, record) } };
    return object;
  });
  const included: ResourceObject[] = [];
  for (const node of breadthFirst(plan.include)) {
    if (node.implicit) continue;
    for (const { record, resource } of graph.loaded(node)) {
      const serializer = serializerOf(resource);
      const id = serializer.idOf(record);
      if (firstSight(serializer.type, id)) included.push(serialize(serializer, record, id));
    }
  }
  const stats = { ...input.stats, ...graph.stats };
  const document: JsonApiDocument = { data: input.single ? (data[0] ?? null) : data, meta: Object.keys(stats).length > 0 ? { stats } : {} };
  if (included.length > 0) document.included = included;
  if (input.links) document.links = input.links;
  return document;
}
