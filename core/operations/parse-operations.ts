import { muralConfig } from '../config.ts';
import { BadRequestError, ConflictError, Forbidden } from '../errors/index.ts';
import type { RelationshipOperation } from '../related/find-relationship.ts';
import type { Action } from '../resource/action.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { checkDocument, escapePointer } from '../write/check-document.ts';
import { metaVersion } from '../write/meta-version.ts';
import type { Precondition } from '../write/write-node.ts';
import { LocalIds } from './local-ids.ts';
import type { OperationResources } from './operation-resources.ts';

type ResourceClass = typeof ResourceBase;
type Json = Record<string, unknown>;

/** Which record an operation names: an `id`, or the `lid` of a record an earlier operation adds. */
export interface OperationTarget {
  readonly id?: string;
  readonly lid?: string;
  /** Relative to the operation: `/ref/id`, `/data/lid`… */
  readonly pointer: string;
  /**
   * `ref.meta.version`: the record's version the operation is conditional on,
   * as `If-Match` is for an endpoint; a failure points at `/ref/meta/version`.
   */
  readonly condition?: Precondition;
}

interface OperationBase {
  /** `/atomic:operations/3`. */
  readonly pointer: string;
  readonly index: number;
  readonly resource: ResourceClass;
  /** Where an error that names no member of the operation points, relative to it: its `ref`, or the operation itself (''). */
  readonly fallback: string;
}

/** One operation, checked as far as it can be without a query. */
export type ParsedOperation =
  | (OperationBase & { readonly kind: 'create'; readonly data: Json; readonly lid?: string })
  | (OperationBase & { readonly kind: 'update'; readonly data: Json; readonly ref?: OperationTarget; readonly named?: OperationTarget })
  | (OperationBase & { readonly kind: 'destroy'; readonly ref: OperationTarget })
  | (OperationBase & {
      readonly kind: 'relationship'; readonly ref: OperationTarget; readonly name: string; readonly operation: RelationshipOperation; readonly data: unknown;
    });

const OPS = ['add', 'update', 'remove'] as const;
type Op = (typeof OPS)[number];
const MEMBER_OPERATION: Record<Op, RelationshipOperation> = { add: 'add', update: 'replace', remove: 'remove' };

/**
 * parse → validate for an `atomic:operations` document: its shape, the
 * limit on operations, each operation's `op`, `ref` and `data`, the types
 * they name and every `lid`. A 400 (or the 403 of an action no endpoint
 * serves) with the pointer of the member at fault; nothing is queried.
 */
export function parseOperations(document: unknown, resources: OperationResources): { operations: ParsedOperation[]; lids: LocalIds } {
  if (!isObject(document)) throw bad('invalid_document', 'The body must be a JSON object', '');
  for (const member of ['data', 'included'] as const) {
    if (member in document) throw bad('invalid_document', `An atomic:operations document has no ${member} member`, `/${member}`);
  }
  const list = document['atomic:operations'];
  if (!Array.isArray(list) || list.length === 0) throw bad('invalid_document', 'atomic:operations must be an array of one or more operations', '/atomic:operations');
  if (list.length > muralConfig.maxOperations) {
    throw bad('too_many_operations', `A request may hold at most ${muralConfig.maxOperations} operations; this one holds ${list.length}`, '/atomic:operations');
  }
  checkDocument(document);
  const parser = new OperationParser(resources);
  return { operations: list.map((operation: unknown, index) => parser.operation(operation, index)), lids: parser.lids };
}

class OperationParser {
  readonly lids = new LocalIds();

  constructor(private readonly resources: OperationResources) {}

  operation(raw: unknown, index: number): ParsedOperation {
    const pointer = `/atomic:operations/${index}`;
    if (!isObject(raw)) throw bad('invalid_operation', 'An operation must be an object', pointer);
    const op = raw.op;
    if (!OPS.includes(op as Op)) throw bad('invalid_operation', `op must be one of ${OPS.join(', ')}`, `${pointer}/op`);
    if (raw.href !== undefined) throw bad('unsupported_href', 'Operations name their target with ref; href is not supported', `${pointer}/href`);
    if (raw.ref !== undefined && !isObject(raw.ref)) throw bad('invalid_ref', 'ref must be an object', `${pointer}/ref`);
    const ref = raw.ref as Json | undefined;
    if (ref?.relationship !== undefined) return this.relationship(op as Op, ref, raw, { pointer, index });
    if (op === 'add') return this.add(raw, ref, { pointer, index });
    if (op === 'update') return this.update(raw, ref, { pointer, index });
    return this.remove(raw, ref, { pointer, index });
  }

  private add(raw: Json, ref: Json | undefined, at: Position): ParsedOperation {
    if (ref !== undefined) throw bad('invalid_ref', 'add creates a record: its ref may only name a relationship to add members to', `${at.pointer}/ref`);
    const data = this.resourceObject(raw, at);
    const resource = this.resource(data.type, `${at.pointer}/data/type`, 'create', at);
    this.linkage(data, at);
    const lid = data.lid === undefined ? undefined : this.lids.declare(data.lid, resource.type, `${at.pointer}/data/lid`);
    return { kind: 'create', ...at, resource, fallback: '', data, ...(lid === undefined ? {} : { lid }) };
  }

  private update(raw: Json, ref: Json | undefined, at: Position): ParsedOperation {
    const data = this.resourceObject(raw, at);
    const target = ref === undefined ? undefined : this.target(ref, at, '/ref');
    const resource = this.resource(ref === undefined ? data.type : ref.type, `${at.pointer}/${ref === undefined ? 'data' : 'ref'}/type`, 'update', at);
    if (data.lid !== undefined && data.id !== undefined) throw bad('invalid_identity', 'data has an id or a lid, not both', `${at.pointer}/data`);
    const named = data.lid === undefined ? undefined : { lid: this.lids.check(data.lid, data.type, `${at.pointer}/data/lid`, `${at.pointer}/data/type`), pointer: '/data/lid' };
    if (!target && !named && data.id === undefined) throw bad('missing', 'update names its record with ref, or with data.id or data.lid', `${at.pointer}/data`);
    if (target?.condition !== undefined && metaVersion(data.meta, `${at.pointer}/data`) !== undefined) {
      throw bad('invalid_document', 'An update states the version it is conditional on once: in ref.meta or in data.meta', `${at.pointer}/data/meta/version`);
    }
    if (target?.lid !== undefined && named !== undefined && target.lid !== named.lid) {
      throw new ConflictError(`data.lid "${named.lid}" is not the record ref names ("${target.lid}")`, { pointer: `${at.pointer}/data/lid` });
    }
    this.linkage(data, at);
    return { kind: 'update', ...at, resource, fallback: ref === undefined ? '/data' : '/ref', data, ...(target ? { ref: target } : {}), ...(named ? { named } : {}) };
  }

  private remove(raw: Json, ref: Json | undefined, at: Position): ParsedOperation {
    if (ref === undefined) throw bad('missing', 'remove names the record to remove with ref', `${at.pointer}/ref`);
    if (raw.data !== undefined) throw bad('invalid_operation', 'remove of a record takes no data', `${at.pointer}/data`);
    const target = this.target(ref, at, '/ref');
    const resource = this.resource(ref.type, `${at.pointer}/ref/type`, 'destroy', at);
    return { kind: 'destroy', ...at, resource, fallback: '/ref', ref: target };
  }

  private relationship(op: Op, ref: Json, raw: Json, at: Position): ParsedOperation {
    const name = ref.relationship;
    if (typeof name !== 'string' || name === '') throw bad('invalid_ref', 'ref.relationship must be a relationship name', `${at.pointer}/ref/relationship`);
    const target = this.target(ref, at, '/ref');
    const resource = this.resource(ref.type, `${at.pointer}/ref/type`, 'update', at);
    if (!('data' in raw)) throw bad('missing', `${op} of relationship members needs data`, `${at.pointer}/data`);
    const identifiers = Array.isArray(raw.data) ? raw.data : [raw.data];
    identifiers.forEach((identifier, i) => this.identifier(identifier, Array.isArray(raw.data) ? `${at.pointer}/data/${i}` : `${at.pointer}/data`));
    return { kind: 'relationship', ...at, resource, fallback: '/ref', ref: target, name, operation: MEMBER_OPERATION[op], data: raw.data };
  }

  /** `data` of an add or update: a resource object with a type. */
  private resourceObject(raw: Json, at: Position): Json {
    if (!('data' in raw)) throw bad('missing', `${String(raw.op)} needs data: the resource object`, `${at.pointer}/data`);
    if (!isObject(raw.data)) throw bad('invalid_operation', 'data must be a resource object', `${at.pointer}/data`);
    if (typeof raw.data.type !== 'string' || raw.data.type === '') throw bad('missing', 'data.type is required', `${at.pointer}/data/type`);
    return raw.data;
  }

  /** `ref`'s type, id or lid, and the version it is conditional on. */
  private target(ref: Json, at: Position, base: string): OperationTarget {
    if (typeof ref.type !== 'string' || ref.type === '') throw bad('missing', 'ref.type is required', `${at.pointer}${base}/type`);
    if (ref.id !== undefined && ref.lid !== undefined) throw bad('invalid_ref', 'ref has an id or a lid, not both', `${at.pointer}${base}`);
    // checked here, where a malformed version is a 400 before anything runs; its 412 points relative to the operation
    const version = metaVersion(ref.meta, `${at.pointer}${base}`);
    const condition = version && { ifMatch: version.ifMatch, source: { pointer: `${base}/meta/version` } };
    const conditional = condition ? { condition } : {};
    if (ref.lid !== undefined) {
      return { lid: this.lids.check(ref.lid, ref.type, `${at.pointer}${base}/lid`, `${at.pointer}${base}/type`), pointer: `${base}/lid`, ...conditional };
    }
    if (typeof ref.id === 'string' || typeof ref.id === 'number') return { id: String(ref.id), pointer: `${base}/id`, ...conditional };
    throw bad('missing', 'ref needs the id of a record, or the lid of one an earlier operation adds', `${at.pointer}${base}${ref.id === undefined ? '' : '/id'}`);
  }

  private resource(type: unknown, pointer: string, action: Action, at: Position): ResourceClass {
    const resource = typeof type === 'string' ? this.resources.byType(type) : undefined;
    if (!resource) throw bad('unknown_type', `No Resource of type ${JSON.stringify(type)} takes operations here`, pointer);
    if (!this.resources.serves(resource, action)) throw new Forbidden(resource.type, action, { pointer: at.pointer });
    return resource;
  }

  /** The relationships of a resource object: every identifier with a lid must name a record an earlier operation adds. */
  private linkage(data: Json, at: Position): void {
    if (!isObject(data.relationships)) return;
    for (const [name, relationship] of Object.entries(data.relationships)) {
      if (!isObject(relationship)) continue;
      const base = `${at.pointer}/data/relationships/${escapePointer(name)}/data`;
      const linkage = relationship.data;
      if (Array.isArray(linkage)) linkage.forEach((identifier, i) => this.identifier(identifier, `${base}/${i}`));
      else this.identifier(linkage, base);
    }
  }

  private identifier(identifier: unknown, pointer: string): void {
    if (!isObject(identifier) || identifier.lid === undefined) return;
    if (identifier.id !== undefined) throw bad('invalid_identity', 'A resource identifier has an id or a lid, not both', pointer);
    this.lids.check(identifier.lid, identifier.type, `${pointer}/lid`, `${pointer}/type`);
  }
}

interface Position {
  readonly pointer: string;
  readonly index: number;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(code: string, detail: string, pointer: string): BadRequestError {
  return new BadRequestError(code, detail, { pointer });
}
