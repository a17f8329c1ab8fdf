import type { AttributeDefinition } from '../resource/attribute.ts';
import { resolveGuard, type ResolvedGuard } from '../resource/guard.ts';
import type { Resource } from '../resource/resource.ts';
import { lookupType, type Coercion } from '../types/index.ts';

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, string>;
}

interface CompiledAttribute {
  name: string;
  read: Coercion;
  value: (record: Record<string, unknown>) => unknown;
  /** Undefined when always readable; evaluated per record when it takes a model. */
  guard?: ResolvedGuard;
}

/**
 * Renders records of one Resource for one request. Everything that does not
 * depend on the record (fieldsets, model-less guards, coercions) is decided
 * once here, so the per-record work is a loop over a flat list.
 */
export class RecordSerializer {
  readonly type: string;
  private readonly attributes: CompiledAttribute[];
  private readonly readId: Coercion;

  constructor(
    private readonly resource: Resource,
    fields: ReadonlySet<string> | undefined,
    extraFields: ReadonlySet<string> | undefined,
  ) {
    const { config, type } = resource.resourceClass;
    this.type = type;
    this.readId = lookupType(config.attributes.get('id')?.type ?? 'integer_id').read;
    this.attributes = [...config.attributes.values()]
      .filter((a) => a.name !== 'id' && wanted(a, fields, extraFields))
      .map((a) => this.compile(a))
      .filter((a): a is CompiledAttribute => a !== undefined);
  }

  serialize(record: unknown): ResourceObject {
    const row = record as Record<string, unknown>;
    const attributes: Record<string, unknown> = {};
    for (const attribute of this.attributes) {
      if (attribute.guard && !attribute.guard.call(this.resource, record, attribute.name)) continue;
      const value = attribute.value(row);
      attributes[attribute.name] = value === null || value === undefined ? null : attribute.read(value);
    }
    return { id: String(this.readId(row.id)), type: this.type, attributes };
  }

  private compile(attribute: AttributeDefinition): CompiledAttribute | undefined {
    if (attribute.readable === false) return undefined;
    let guard: ResolvedGuard | undefined;
    if (attribute.readable !== true) {
      guard = resolveGuard(attribute.readable, this.resource, `${this.resource.resourceClass.name}.${attribute.name}`);
      // a guard that takes no model answers the same for every record
      if (guard.arity === 0) {
        if (!guard.call(this.resource)) return undefined;
        guard = undefined;
      }
    }
    const { block, name } = attribute;
    const resource = this.resource;
    return {
      name,
      read: lookupType(attribute.type).read,
      value: block ? (row) => block.call(resource, row as never, resource as never) : (row) => row[name],
      guard,
    };
  }
}

function wanted(attribute: AttributeDefinition, fields: ReadonlySet<string> | undefined, extra: ReadonlySet<string> | undefined): boolean {
  if (attribute.extra) return extra?.has(attribute.name) ?? false;
  return fields ? fields.has(attribute.name) : true;
}
