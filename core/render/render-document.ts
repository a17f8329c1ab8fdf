import type { Resource } from '../resource/resource.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import type { JsonApiDocument, PaginationLinks } from './document.ts';
import { RecordSerializer } from './record-serializer.ts';

export interface RenderInput {
  resource: Resource;
  plan: QueryPlan;
  records: readonly unknown[];
  single: boolean;
  stats: Record<string, unknown>;
  links?: PaginationLinks;
}

/** render: records of a loaded query → a JSON:API document. */
export function renderDocument(input: RenderInput): JsonApiDocument {
  const { resource, plan } = input;
  const type = resource.resourceClass.type;
  const serializer = new RecordSerializer(resource, plan.fields.get(type), plan.extraFields.get(type));
  const objects = input.records.map((record) => serializer.serialize(record));
  const meta: Record<string, unknown> = Object.keys(input.stats).length > 0 ? { stats: input.stats } : {};
  const document: JsonApiDocument = { data: input.single ? (objects[0] ?? null) : objects, meta };
  if (input.links) document.links = input.links;
  return document;
}
