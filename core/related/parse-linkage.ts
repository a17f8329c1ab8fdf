import { muralConfig } from '../config.ts';
import { dictionary } from '../dictionary.ts';
import { BadRequestError, ConflictError } from '../errors/index.ts';
import { targetResources } from '../query/include-tree.ts';
import { TO_MANY, type RelationshipDefinition } from '../resource/relationship-definition.ts';
import { checkDocument } from '../write/check-document.ts';
import { coerceId } from '../write/coerce-id.ts';
import type { WriteNode } from '../write/write-node.ts';

type Json = Record<string, unknown>;

/** A relationship write's body, as members for the write engine. */
export interface ParsedLinkage {
  /** One node per distinct identifier, each an existing record to associate (`update`, as sideposting links one). */
  items: WriteNode[];
  /** Where each item's identifier is in the body. */
  pointers: string[];
  /** `data: null`: clear a to-one relationship. */
  clear: boolean;
}

/**
 * `{ "data": [identifiers] }` for a to-many relationship, `{ "data":
 * identifier | null }` for a to-one: 400 for a malformed document, 409 for an
 * identifier whose type the relationship cannot hold (JSON:API's answer to a
 * type that does not belong to the endpoint). Ids are coerced by the related
 * Resource's id type; an identifier given twice is one member.
 */
export function parseLinkage(body: unknown, relationship: RelationshipDefinition): ParsedLinkage {
  checkDocument(body);
  if (!isObject(body) || !('data' in body)) throw bad('invalid_document', 'A relationship write needs a document with a data member', '');
  const toMany = TO_MANY.has(relationship.kind);
  const data = body.data;
  if (data === null && !toMany) return { items: [], pointers: [], clear: true };
  if (toMany !== Array.isArray(data)) {
    throw bad('invalid_relationship', `data must be ${toMany ? 'an array of resource identifiers' : 'a resource identifier or null'} for ${relationship.name}`, '/data');
  }
  const identifiers = (toMany ? data : [data]) as unknown[];
  if (identifiers.length > muralConfig.maxWriteRecords) {
    throw bad('too_many_records', `A write may touch at most ${muralConfig.maxWriteRecords} records`, '/data');
  }
  const parsed: ParsedLinkage = { items: [], pointers: [], clear: false };
  const seen = new Set<string>();
  identifiers.forEach((identifier, i) => {
    const pointer = toMany ? `/data/${i}` : '/data';
    const item = memberNode(relationship, identifier, pointer);
    const identity = `${item.resource.type}:${String(item.key)}`;
    if (seen.has(identity)) return;
    seen.add(identity);
    parsed.items.push(item);
    parsed.pointers.push(pointer);
  });
  return parsed;
}

function memberNode(relationship: RelationshipDefinition, identifier: unknown, pointer: string): WriteNode {
  if (!isObject(identifier)) throw bad('invalid_relationship', 'A resource identifier must be an object', pointer);
  const { type, id } = identifier;
  if (typeof type !== 'string' || type === '') throw bad('missing', 'A resource identifier needs a type', `${pointer}/type`);
  if (typeof id !== 'string' && typeof id !== 'number') throw bad('missing', 'A resource identifier needs the id of an existing record', `${pointer}/id`);
  const resource = targetResources(relationship).find((r) => r.type === type);
  if (!resource) throw new ConflictError(`Type "${type}" is not a type of relationship "${relationship.name}"`, { pointer: `${pointer}/type` });
  const text = String(id);
  return {
    resource, action: 'update', id: text, key: coerceId(resource, text, { pointer: `${pointer}/id` }),
    attributes: dictionary(), guardedAttributes: [], relationships: [],
    location: { pointer: null, identifier: pointer, relationship: { name: relationship.name, type, id: text } },
  };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(code: string, detail: string, pointer: string): BadRequestError {
  return new BadRequestError(code, detail, { pointer });
}
