import type { AttributeBlock, AttributeDefinition } from '../resource/attribute.ts';
import { recordingGuards, stillAnswered, type GuardAnswer } from '../resource/guard-answers.ts';
import { resolveGuard, type ResolvedGuard } from '../resource/guard.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { configurationRevision } from '../resource/revision.ts';
import { lookupType, type Coercion } from '../types/index.ts';
import { readableNow } from '../query/include-tree.ts';
import { isArrayIndexKey } from './json-text.ts';
import { cachedRelationshipLinks, type EndpointLinksText, type LinksBuilder, type LinksTextBuilder } from './relationship-link.ts';

type ResourceClass = typeof ResourceBase;

export interface CompiledAttribute {
  readonly name: string;
  /** `"name":`, the member's key as JSON text. */
  readonly key: string;
  /** `,"name":`, the key after another member. */
  readonly nextKey: string;
  readonly read: Coercion;
  /** The attribute's block; without one the value is the record's property of the same name. */
  readonly block?: AttributeBlock;
  /** Undefined when always readable; evaluated per record when it takes a model. */
  readonly guard?: ResolvedGuard;
}

export interface CompiledRelationship {
  readonly name: string;
  /** `"name":`, the member's key as JSON text. */
  readonly key: string;
  /** `,"name":`, the key after another member. */
  readonly nextKey: string;
  readonly links: LinksBuilder;
  /** The end of the relationship object as text, from its links on (see LinksTextBuilder). */
  readonly linksText: LinksTextBuilder;
  /** linksText's constant parts, in the endpoints style (relationship-link.ts). */
  readonly endpoint?: EndpointLinksText;
  /** A sparse fieldset that leaves it out renders it only when it was included. */
  readonly unlessIncluded: boolean;
}

/** What a serializer renders of each record of one Resource, given a fieldset and the request's guards. */
export interface SerializerLayout {
  readonly readId: Coercion;
  /**
   * Whether its records can be written as text member by member: not when a
   * member's name is an array index, which JSON.stringify moves first.
   */
  readonly writesText: boolean;
  readonly attributes: readonly CompiledAttribute[];
  readonly relationships: readonly CompiledRelationship[];
}

interface Entry {
  readonly revision: number;
  readonly layout: SerializerLayout;
  readonly answers: readonly GuardAnswer[];
}

/** The key of "no sparse fieldset". */
const EVERY_FIELD = {};
const layouts = new WeakMap<ResourceClass, WeakMap<object, WeakMap<object, Entry>>>();

/**
 * A Resource's layout for a fieldset, kept between requests: a cached plan
 * (plan-cache.ts) hands every request of a query the same fieldset sets, so
 * the layout is found by their identity, and reused while the configuration
 * and every model-less guard it consulted answer as they did.
 */
export function serializerLayout(resource: ResourceBase, fields?: ReadonlySet<string>, extraFields?: ReadonlySet<string>): SerializerLayout {
  const resourceClass = resource.resourceClass;
  let byFields = layouts.get(resourceClass);
  if (!byFields) layouts.set(resourceClass, (byFields = new WeakMap()));
  let byExtra = byFields.get(fields ?? EVERY_FIELD);
  if (!byExtra) byFields.set(fields ?? EVERY_FIELD, (byExtra = new WeakMap()));
  const revision = configurationRevision();
  const hit = byExtra.get(extraFields ?? EVERY_FIELD);
  if (hit && hit.revision === revision && stillAnswered(hit.answers)) return hit.layout;
  const { value: layout, answers } = recordingGuards(() => compileLayout(resource, fields, extraFields));
  if (answers !== undefined) byExtra.set(extraFields ?? EVERY_FIELD, { revision, layout, answers });
  return layout;
}

function compileLayout(resource: ResourceBase, fields?: ReadonlySet<string>, extraFields?: ReadonlySet<string>): SerializerLayout {
  const { config } = resource.resourceClass;
  const names = [...config.attributes.keys(), ...config.relationships.keys()];
  return {
    readId: lookupType(config.attributes.get('id')?.type ?? 'integer_id').read,
    writesText: !names.some(isArrayIndexKey),
    attributes: [...config.attributes.values()]
      .filter((a) => a.name !== 'id' && wanted(a, fields, extraFields))
      .map((a) => compileAttribute(resource, a))
      .filter((a): a is CompiledAttribute => a !== undefined),
    relationships: [...config.relationships.values()]
      .filter((r) => readableNow(resource, r))
      .map((definition: RelationshipDefinition) => {
        const links = cachedRelationshipLinks(resource.resourceClass, definition);
        return {
          name: definition.name,
          key: memberKey(definition.name),
          nextKey: `,${memberKey(definition.name)}`,
          links: links.object,
          linksText: links.text,
          endpoint: links.endpoint,
          unlessIncluded: fields !== undefined && !fields.has(definition.name),
        };
      }),
  };
}

function compileAttribute(resource: ResourceBase, attribute: AttributeDefinition): CompiledAttribute | undefined {
  if (attribute.readable === false) return undefined;
  let guard: ResolvedGuard | undefined;
  if (attribute.readable !== true) {
    guard = resolveGuard(attribute.readable, resource, `${resource.resourceClass.name}.${attribute.name}`);
    // a guard that takes no model answers the same for every record
    if (guard.arity === 0) {
      if (!guard.call(resource)) return undefined;
      guard = undefined;
    }
  }
  return { name: attribute.name, key: memberKey(attribute.name), nextKey: `,${memberKey(attribute.name)}`, read: lookupType(attribute.type).read, block: attribute.block, guard };
}

function memberKey(name: string): string {
  return `${JSON.stringify(name)}:`;
}

function wanted(attribute: AttributeDefinition, fields: ReadonlySet<string> | undefined, extra: ReadonlySet<string> | undefined): boolean {
  if (attribute.extra) return extra?.has(attribute.name) ?? false;
  return fields ? fields.has(attribute.name) : true;
}
