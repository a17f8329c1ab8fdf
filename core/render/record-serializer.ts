import type { ResourceBase } from '../resource/resource-base.ts';
import type { Coercion } from '../types/index.ts';
import type { IncludeGraph, LoadedRecord } from '../sideload/include-graph.ts';
import { serializerLayout, type CompiledAttribute, type CompiledRelationship } from './serializer-layout.ts';

/**
 * A record as a JSON:API document renders it: `id`, `type`, `attributes`, `relationships`, `links`
 * and `meta`.
 */
export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, string>;
  /** The client's temp-id of a record a write created. */
  'temp-id'?: string;
  /** On a cursor page: `page.cursor`, the record's own cursor, to page on from it either way. */
  meta?: { page: { cursor: string } };
}

/**
 * Renders records of one Resource for one request. Everything that does not
 * depend on the record (fieldsets, model-less guards, coercions) is decided
 * once here, so the per-record work is a loop over a flat list.
 */
export class RecordSerializer {
  readonly type: string;
  private readonly attributes: readonly CompiledAttribute[];
  private readonly relationships: readonly CompiledRelationship[];
  private readonly readId: Coercion;

  constructor(
    private readonly resource: ResourceBase,
    fields: ReadonlySet<string> | undefined,
    extraFields: ReadonlySet<string> | undefined,
    private readonly graph?: IncludeGraph,
  ) {
    this.type = resource.resourceClass.type;
    ({ attributes: this.attributes, relationships: this.relationships, readId: this.readId } = serializerLayout(resource, fields, extraFields));
  }

  /** The `id` a record renders with. */
  idOf(record: unknown): string {
    return String(this.readId((record as Record<string, unknown>).id));
  }

  // indexed loops and no closures: this runs for every attribute of every record rendered
  serialize(record: unknown, id = this.idOf(record)): ResourceObject {
    const row = record as Record<string, unknown>;
    const attributes: Record<string, unknown> = {};
    const list = this.attributes;
    for (let i = 0; i < list.length; i++) {
      const attribute = list[i]!;
      if (attribute.guard !== undefined && !attribute.guard.call(this.resource, record, attribute.name)) continue;
      const value = attribute.block === undefined ? row[attribute.name] : attribute.block.call(this.resource as never, row as never, this.resource as never);
      attributes[attribute.name] = value === null || value === undefined ? null : attribute.read(value);
    }
    const object: ResourceObject = { id, type: this.type, attributes };
    if (this.relationships.length > 0) object.relationships = this.renderRelationships(row, id);
    return object;
  }

  /**
   * Included relationships carry linkage; the others say `included: false`.
   * A sparse fieldset drops relationships it does not name, except included
   * ones, whose linkage clients need to attach the included records.
   */
  private renderRelationships(row: Record<string, unknown>, id: string): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const loaded = this.graph?.relationsOf(row);
    const implicit = loaded && this.graph!.implicitOf(row);
    const list = this.relationships;
    for (let i = 0; i < list.length; i++) {
      const { name, links: linksOf, unlessIncluded } = list[i]!;
      const related = loaded?.get(name);
      if (unlessIncluded && related === undefined) continue;
      const member: Record<string, unknown> = {};
      if (related !== undefined) member.data = linkage(related);
      if (related === undefined || implicit?.has(name)) member.meta = { included: false };
      const links = linksOf(row, id);
      if (links !== undefined) member.links = links;
      result[name] = member;
    }
    return result;
  }
}

function linkage(related: LoadedRecord[] | LoadedRecord | null): unknown {
  if (related === null) return null;
  if (!Array.isArray(related)) return identify(related);
  const identifiers = new Array<unknown>(related.length);
  for (let i = 0; i < related.length; i++) identifiers[i] = identify(related[i]!);
  return identifiers;
}

// module-level rather than a closure per call: rendering calls it for every related record
function identify(loaded: LoadedRecord): { type: string; id: string } {
  return { type: loaded.resource.type, id: String((loaded.record as { id?: unknown }).id) };
}
