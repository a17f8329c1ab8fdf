import type { ResourceBase } from '../resource/resource-base.ts';
import type { Coercion } from '../types/index.ts';
import type { IncludeGraph } from '../sideload/include-graph.ts';
import { jsonText, quoted } from './json-text.ts';
import { linkage, linkageText } from './resource-linkage.ts';
import { NOT_INCLUDED, recordWriter, type RecordWriter } from './record-writer.ts';
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
  /**
   * On a cursor page: `page.cursor`, the record's own cursor, to page on
   * from it either way; asked with `meta_fields[type]=permissions`, what the
   * caller may do with the record.
   */
  meta?: { page?: { cursor: string }; permissions?: Record<string, boolean> };
}

/** What a record carries beside its fields: the temp-id a write gave it, its cursor on a cursor page. */
export interface RecordExtras {
  tempId?: string;
  cursor?: string;
  /** `meta.permissions`, when the request asked for it (`meta_fields`). */
  permissions?: Readonly<Record<string, boolean>>;
}

/** An attribute a guard withholds from this record. */
const WITHHELD = Symbol('withheld');

/**
 * Renders records of one Resource for one request, as objects or straight
 * to JSON text (the bytes `JSON.stringify` would write for the object).
 * Everything that does not depend on the record (fieldsets, model-less
 * guards, coercions, member keys) is decided once here, so the per-record
 * work is a loop over a flat list.
 */
export class RecordSerializer {
  readonly type: string;
  private readonly attributes: readonly CompiledAttribute[];
  private readonly relationships: readonly CompiledRelationship[];
  private readonly readId: Coercion;
  private readonly writesText: boolean;
  /** `,"type":"…"`, the text after a record's id. */
  private readonly typeText: string;
  /** serializeText's work as one generated function, where it can be (record-writer.ts). */
  private readonly writer: RecordWriter | undefined;

  constructor(
    private readonly resource: ResourceBase,
    fields: ReadonlySet<string> | undefined,
    extraFields: ReadonlySet<string> | undefined,
    private readonly graph?: IncludeGraph,
  ) {
    this.type = resource.resourceClass.type;
    this.typeText = `,"type":${JSON.stringify(this.type)}`;
    const layout = serializerLayout(resource, fields, extraFields);
    ({ attributes: this.attributes, relationships: this.relationships, readId: this.readId, writesText: this.writesText } = layout);
    this.writer = recordWriter(layout, this.type);
  }

  /** The `id` a record renders with. */
  idOf(record: unknown): string {
    return String(this.readId((record as Record<string, unknown>).id));
  }

  // indexed loops and no closures: this runs for every attribute of every record rendered
  serialize(record: unknown, id = this.idOf(record), extras?: RecordExtras): ResourceObject {
    const row = record as Record<string, unknown>;
    const attributes: Record<string, unknown> = {};
    const list = this.attributes;
    for (let i = 0; i < list.length; i++) {
      const value = this.valueOf(list[i]!, row);
      if (value !== WITHHELD) attributes[list[i]!.name] = value;
    }
    const object: ResourceObject = { id, type: this.type, attributes };
    if (this.relationships.length > 0) object.relationships = this.renderRelationships(row, id);
    if (extras?.tempId) object['temp-id'] = extras.tempId;
    if (extras?.cursor !== undefined || extras?.permissions) {
      object.meta = { ...(extras.cursor !== undefined && { page: { cursor: extras.cursor } }), ...(extras.permissions && { permissions: { ...extras.permissions } }) };
    }
    return object;
  }

  /** `JSON.stringify(this.serialize(record, id, extras))`, written without building the object. */
  serializeText(record: unknown, id = this.idOf(record), extras?: RecordExtras): string {
    if (!this.writesText) return JSON.stringify(this.serialize(record, id, extras));
    const row = record as Record<string, unknown>;
    if (this.writer) {
      const text = this.writer(row, id, this.graph, this.resource);
      return extras === undefined ? `${text}}` : `${text}${extrasText(extras)}}`;
    }
    let text = `{"id":${quoted(id)}${this.typeText},"attributes":{`;
    let first = true;
    const list = this.attributes;
    for (let i = 0; i < list.length; i++) {
      const value = this.valueOf(list[i]!, row);
      const written = value === WITHHELD ? undefined : jsonText(value);
      if (written === undefined) continue;
      text += (first ? list[i]!.key : list[i]!.nextKey) + written;
      first = false;
    }
    text += '}';
    if (this.relationships.length > 0) text += `,"relationships":${this.relationshipsText(row, id)}`;
    return extras === undefined ? `${text}}` : `${text}${extrasText(extras)}}`;
  }

  private valueOf(attribute: CompiledAttribute, row: Record<string, unknown>): unknown {
    if (attribute.guard !== undefined && !attribute.guard.call(this.resource, row, attribute.name)) return WITHHELD;
    const value = attribute.block === undefined ? row[attribute.name] : attribute.block.call(this.resource as never, row as never, this.resource as never);
    return value === null || value === undefined ? null : attribute.read(value);
  }

  /**
   * Included relationships carry linkage; the others say `included: false`.
   * A sparse fieldset drops relationships it does not name, except included
   * ones, whose linkage clients need to attach the included records.
   */
  private renderRelationships(row: Record<string, unknown>, id: string): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const graph = this.graph;
    const implicit = graph?.hasImplicit() ? graph.implicitOf(row) : undefined;
    const list = this.relationships;
    for (let i = 0; i < list.length; i++) {
      const { name, links: linksOf, unlessIncluded } = list[i]!;
      const related = graph?.relatedTo(row, name);
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

  /** `renderRelationships` as JSON text. */
  private relationshipsText(row: Record<string, unknown>, id: string): string {
    let text = '{';
    let first = true;
    const graph = this.graph;
    const implicit = graph?.hasImplicit() ? graph.implicitOf(row) : undefined;
    const list = this.relationships;
    for (let i = 0; i < list.length; i++) {
      const { name, key, nextKey, linksText, unlessIncluded } = list[i]!;
      const related = graph?.relatedTo(row, name);
      if (unlessIncluded && related === undefined) continue;
      const open = first ? key : nextKey;
      first = false;
      if (related === undefined) text += open + NOT_INCLUDED + linksText(row, id);
      else text += `${open}{"data":${linkageText(related)}${implicit?.has(name) ? ',"meta":{"included":false}' : ''}${linksText(row, id)}`;
    }
    return `${text}}`;
  }
}

/** A record's `temp-id` and `meta` members as text, each after a comma. */
function extrasText(extras: RecordExtras): string {
  let text = '';
  if (extras.tempId) text += `,"temp-id":${quoted(extras.tempId)}`;
  if (extras.cursor === undefined && !extras.permissions) return text;
  const page = extras.cursor === undefined ? '' : `"page":{"cursor":${quoted(extras.cursor)}}`;
  const permissions = extras.permissions ? `"permissions":${JSON.stringify(extras.permissions)}` : '';
  text += `,"meta":{${page}${page && permissions ? ',' : ''}${permissions}}`;
  return text;
}
