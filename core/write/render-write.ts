import { buildQuery } from '../query/build-query.ts';
import { readableNow, targetResources, type IncludeNode } from '../query/include-tree.ts';
import type { QueryParams } from '../query-params.ts';
import { TO_MANY } from '../resource/relationship-definition.ts';
import type { JsonApiDocument } from '../render/document.ts';
import { renderDocument } from '../render/render-document.ts';
import { IncludeGraph, type LoadedRecord } from '../sideload/include-graph.ts';
import { sideload } from '../sideload/sideload.ts';
import type { WriteNode } from './write-node.ts';
import { resourceAllows } from '../resource/resource-guard.ts';

/**
 * The response of a write mirrors its request: the written record, with the
 * records sideposted alongside it (less destroyed and disassociated ones) in
 * `included`, each new record echoing its `temp-id`. `include` on the write
 * URL sideloads more.
 */
export async function renderWrite(root: WriteNode, params: QueryParams): Promise<JsonApiDocument> {
  const resource = new root.resource();
  const id = (root.model as { id?: unknown }).id;
  // JSON:API wants the written record back; one the caller may not read shows its identity only
  if (!resourceAllows(root.resource, 'show')) return { data: { type: root.resource.type, id: String(id), attributes: {} }, meta: {} };
  const plan = buildQuery(resource, { include: params.include, fields: params.fields, extra_fields: params.extra_fields, meta_fields: params.meta_fields }, { id: String(id) });
  const graph = new IncludeGraph(root.resource.maxIncludedRecords);
  const tempIds = new WeakMap<object, string>();
  const written = writtenNodes(root, graph, tempIds, '');
  const rootRecord: LoadedRecord = { record: root.model!, resource: root.resource };
  await sideload([rootRecord], plan, graph);
  return renderDocument({ plan: { ...plan, include: [...written, ...plan.include] }, records: [rootRecord], single: true, stats: {}, graph, tempIds });
}

function writtenNodes(node: WriteNode, graph: IncludeGraph, tempIds: WeakMap<object, string>, prefix: string): IncludeNode[] {
  if (node.tempId) tempIds.set(node.model!, node.tempId);
  const reader = new node.resource();
  // what the caller may write but not read (a guard on the relationship or its Resource) stays out of the response
  return node.relationships.filter((r) => readableNow(reader, r.definition)).map((relationship) => {
    const { definition } = relationship;
    const kept = relationship.items.filter((item) => item.action === 'create' || item.action === 'update');
    const path = prefix ? `${prefix}.${definition.name}` : definition.name;
    const loaded = kept.map((item) => ({ record: item.model!, resource: item.resource }));
    graph.assign(node.model!, definition.name, TO_MANY.has(definition.kind) ? loaded : (loaded[0] ?? null));
    const children = kept.flatMap((item) => writtenNodes(item, graph, tempIds, path));
    const include: IncludeNode = { name: definition.name, path, relationship: definition, resources: targetResources(definition), children };
    graph.addLoaded(include, loaded);
    return include;
  });
}
