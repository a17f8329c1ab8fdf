import { BadRequestError, ClientIdUnsupported, ConflictError, TypeCoercionError, UnwritableError } from '../errors/index.ts';
import { hiddenNow } from '../query/hidden-relationship.ts';
import { targetResources, writableNow } from '../query/include-tree.ts';
import { servedResources } from '../resource/polymorphism.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { TO_MANY } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { lookupType } from '../types/index.ts';
import { muralConfig } from '../config.ts';
import { dictionary } from '../dictionary.ts';
import { checkDocument, escapePointer } from './check-document.ts';
import { coerceId } from './coerce-id.ts';
import { metaVersion } from './meta-version.ts';
import type { NodeAction, WriteNode, WriteRelationship } from './write-node.ts';

type ResourceClass = typeof ResourceBase;
type Json = Record<string, unknown>;

const METHODS: readonly NodeAction[] = ['create', 'update', 'destroy', 'disassociate'];

export interface PayloadTarget {
  resource: ResourceClass;
  action: 'create' | 'update';
  /** The id in the URL, for updates. */
  id?: string;
}

/**
 * parse → validate for writes: turns a JSON:API payload (with or without the
 * top-level `data` wrapper) into a tree of WriteNodes, reporting the first
 * malformed member (400), endpoint mismatch (409) or unwritable member (422)
 * with its pointer. Nothing touches the database here.
 */
export function parsePayload(body: unknown, target: PayloadTarget): WriteNode {
  checkDocument(body);
  if (!isObject(body)) throw bad('invalid_document', 'The body must be a JSON object', '');
  const wrapped = isObject(body.data);
  const data = (wrapped ? body.data : body) as Json;
  const included = wrapped ? body.included : data.included;
  if (included !== undefined && !Array.isArray(included)) throw bad('invalid_document', 'included must be an array', '/included');
  if (included) checkIncludedOnce(included);
  const parser = new PayloadParser((included ?? []) as unknown[]);
  const type = data.type;
  if (typeof type !== 'string' || type === '') throw bad('missing', 'data.type is required', '/data/type');
  // a polymorphic child's endpoint takes its own type only, though it inherits the parent's list of children
  const resource = servedResources(target.resource).find((r) => r.type === type);
  if (!resource) throw new ConflictError(`Type "${type}" does not match the endpoint's type "${target.resource.type}"`, { pointer: '/data/type' });
  const id = identity(data.id, '/data/id');
  if (target.action === 'update' && id !== undefined && id !== target.id) {
    throw new ConflictError(`Id "${id}" does not match the endpoint's id "${target.id}"`, { pointer: '/data/id' });
  }
  if (target.action === 'update') return parser.node(resource, data, '/data', 'update', target.id);
  if (id !== undefined) adoptClientId(resource, id, '/data/id');
  return withClientId(parser.node(resource, data, '/data', 'create', id), '/data/id');
}

/** Where a node sits in the graph being parsed, to refuse cycles and bound depth. */
interface Position {
  depth: number;
  /** `included` indexes on the path from the root to this node. */
  path: ReadonlySet<number>;
}

const ROOT: Position = { depth: 0, path: new Set() };

class PayloadParser {
  private readonly used = new Map<number, WriteNode>();
  private records = 0;

  constructor(private readonly included: unknown[]) {}

  node(resource: ResourceClass, object: Json, pointer: string, action: NodeAction, id?: string, tempId?: string, at: Position = ROOT): WriteNode {
    this.count(pointer, at);
    const instance = new resource();
    const key = id === undefined || action === 'create' ? undefined : coerceId(resource, id, at.depth === 0 ? {} : { pointer: `${pointer}/id` });
    const node: WriteNode = {
      resource, action, id, key, tempId, attributes: dictionary(), guardedAttributes: [], relationships: [],
      location: { pointer },
    };
    if (action !== 'create') node.precondition = metaVersion(object.meta, pointer);
    this.attributes(instance, node, object.attributes, pointer);
    if (object.relationships !== undefined) {
      if (!isObject(object.relationships)) throw bad('invalid_document', 'relationships must be an object', `${pointer}/relationships`);
      for (const [name, value] of Object.entries(object.relationships)) {
        node.relationships.push(this.relationship(instance, name, value, `${pointer}/relationships/${escapePointer(name)}`, at));
      }
    }
    return node;
  }

  /** Every record of a write costs queries inside one transaction: their number and nesting are bounded. */
  private count(pointer: string, at: Position): void {
    if (++this.records > muralConfig.maxWriteRecords) {
      throw bad('too_many_records', `A write may touch at most ${muralConfig.maxWriteRecords} records`, pointer);
    }
    if (at.depth > muralConfig.maxDocumentDepth) {
      throw bad('graph_too_deep', `Sideposted records nest deeper than ${muralConfig.maxDocumentDepth} levels`, pointer);
    }
  }

  private attributes(instance: ResourceBase, node: WriteNode, raw: unknown, pointer: string): void {
    if (raw === undefined) return;
    if (!isObject(raw)) throw bad('invalid_document', 'attributes must be an object', `${pointer}/attributes`);
    const { config, type } = instance.resourceClass;
    for (const [name, value] of Object.entries(raw)) {
      const at = `${pointer}/attributes/${escapePointer(name)}`;
      const attribute = config.attributes.get(name);
      if (!attribute || attribute.extra) throw bad('unknown_attribute', `Unknown attribute "${name}" on ${type}`, at);
      if (attribute.writable === false) throw new UnwritableError('attribute', name, type, at);
      try {
        node.attributes[name] = value === null ? null : lookupType(attribute.type).write(value);
      } catch (error) {
        if (error instanceof TypeCoercionError) throw error.at({ pointer: at });
        throw error;
      }
      if (attribute.writable !== true) node.guardedAttributes.push(name);
    }
  }

  private relationship(instance: ResourceBase, name: string, value: unknown, pointer: string, at: Position): WriteRelationship {
    const owner = instance.resourceClass;
    const definition = owner.config.relationships.get(name);
    // a relationship the caller may neither read nor write is answered as one that does not exist
    if (!definition || hiddenNow(instance, definition)) throw bad('unknown_relationship', `Unknown relationship "${name}" on ${owner.type}`, pointer);
    if (!writableNow(instance, definition)) throw new UnwritableError('relationship', name, owner.type, pointer);
    if (!isObject(value) || !('data' in value)) throw bad('invalid_relationship', `relationships.${name} needs a data member`, pointer);
    const toMany = TO_MANY.has(definition.kind);
    const data = value.data;
    if (data === null && !toMany) return { definition, pointer, items: [], clear: true };
    if (toMany !== Array.isArray(data)) {
      throw bad('invalid_relationship', `relationships.${name}.data must be ${toMany ? 'an array' : 'an object or null'}`, `${pointer}/data`);
    }
    const identifiers = (toMany ? data : [data]) as unknown[];
    const items = identifiers.map((identifier, i) => this.identifier(definition, identifier, toMany ? `${pointer}/data/${i}` : `${pointer}/data`, at));
    return { definition, pointer, items, clear: false };
  }

  private identifier(definition: RelationshipDefinition, identifier: unknown, pointer: string, at: Position): WriteNode {
    if (!isObject(identifier)) throw bad('invalid_relationship', 'A resource identifier must be an object', pointer);
    const { type, method: rawMethod } = identifier;
    const id = identity(identifier.id, `${pointer}/id`);
    const tempId = identity(identifier['temp-id'], `${pointer}/temp-id`);
    if (typeof type !== 'string') throw bad('missing', 'A resource identifier needs a type', `${pointer}/type`);
    const resource = targetResources(definition).find((r) => r.type === type);
    if (!resource) throw bad('invalid_relationship', `"${type}" is not a type of relationship "${definition.name}"`, `${pointer}/type`);
    if (id === undefined && !tempId) throw bad('missing', 'A resource identifier needs an id or a temp-id', pointer);
    const method = (rawMethod ?? (tempId && id === undefined ? 'create' : 'update')) as NodeAction;
    if (!METHODS.includes(method)) throw bad('invalid_relationship', `method must be one of ${METHODS.join(', ')}`, `${pointer}/method`);
    // a create names its record by temp-id, or by the id the client gave it where the Resource takes those
    if (method === 'create' && id !== undefined) adoptClientId(resource, id, `${pointer}/id`);
    if (method !== 'create' && id === undefined) throw bad('missing', `method "${method}" needs the id of an existing record`, pointer);
    const index = this.included.findIndex(
      (entry) => isObject(entry) && entry.type === type && (tempId !== undefined && id === undefined ? entry['temp-id'] === tempId : identityOrNone(entry.id) === id),
    );
    if (index === -1 && method === 'create') {
      throw bad('missing_included', `No included entry for ${type} with ${id === undefined ? `temp-id "${tempId}"` : `id "${id}"`}`, pointer);
    }
    const relationship = { name: definition.name, type, id, tempId };
    const inner: Position = { depth: at.depth + 1, path: index === -1 ? at.path : new Set([...at.path, index]) };
    if (index === -1) return { ...this.node(resource, { meta: identifier.meta }, pointer, method, id, tempId, inner), location: { pointer: null, identifier: pointer, relationship } };
    if (at.path.has(index)) {
      throw bad('relationship_cycle', `/included/${index} is reached again through its own relationships; a write graph may not loop`, pointer);
    }
    const existing = this.used.get(index);
    if (existing) return existing;
    const node = this.node(resource, this.included[index] as Json, `/included/${index}`, method, id, tempId, inner);
    if (method === 'create' && id !== undefined) withClientId(node, `${pointer}/id`);
    node.location = { pointer: `/included/${index}`, relationship };
    node.precondition ??= method === 'create' ? undefined : metaVersion(identifier.meta, pointer);
    this.used.set(index, node);
    return node;
  }
}

/**
 * A create naming its own id: a 403 unless the Resource takes
 * client-generated ids, a 400 at the id when its `id` type refuses it (a
 * malformed UUID), before anything else of the record is read.
 */
function adoptClientId(resource: ResourceClass, id: string, pointer: string): void {
  if (!resource.clientGeneratedIds) throw new ClientIdUnsupported(resource.type, { pointer });
  coerceId(resource, id, { pointer });
}

/** The created record takes the client's id as its key: written as its `id` attribute, checked for a clash once loaded. */
function withClientId(node: WriteNode, pointer: string): WriteNode {
  if (node.id === undefined) return node;
  node.key = coerceId(node.resource, node.id, { pointer });
  node.attributes.id = node.key;
  node.clientId = { pointer };
  return node;
}

/**
 * A record appears in `included` once: of two entries for one temp-id (or
 * id), relationships would reach only the first, and the second would be
 * dropped without a word.
 */
function checkIncludedOnce(included: readonly unknown[]): void {
  const seen = new Set<string>();
  included.forEach((entry, i) => {
    if (!isObject(entry) || typeof entry.type !== 'string') return;
    for (const member of ['temp-id', 'id'] as const) {
      const value = identityOrNone(entry[member]);
      if (value === undefined) continue;
      const key = JSON.stringify([entry.type, member, value]);
      if (seen.has(key)) throw bad('duplicate_included', `included holds ${entry.type} with ${member} ${JSON.stringify(value)} more than once`, `/included/${i}`);
      seen.add(key);
    }
  });
}

/** An `id` or `temp-id` member: a string, or a number as many clients send; anything else is a 400. */
function identity(value: unknown, pointer: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw bad('invalid_document', `${pointer.split('/').pop()} must be a string`, pointer);
}

function identityOrNone(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(code: string, detail: string, pointer: string): BadRequestError {
  return new BadRequestError(code, detail, { pointer });
}
