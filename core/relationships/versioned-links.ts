import { versionAttributeOf } from '../conditional/version.ts';
import { relatedResourceIfAny } from '../resource/resolve-resource.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { registeredResources } from '../resource/resource-registry.ts';
import { configurationCache } from '../resource/revision.ts';
import { foreignKeyOf, typeColumnOf } from './relationship-keys.ts';

type ResourceClass = typeof ResourceBase;

/**
 * A column of a record that points at a record of a versioned Resource
 * whose document shows the link: a position's `employee_id` is part of its
 * employee's `positions`. When the column changes, or the record is created
 * or destroyed, the linked record's document changes too, and so must its
 * version, whichever side the change was made from.
 */
export interface VersionedLink {
  /** The column of the written record holding the linked record's key. */
  readonly column: string;
  /** A polymorphic link holds only while this column of the written record names `typeValue`. */
  readonly typeColumn?: string;
  readonly typeValue?: string;
  readonly target: ResourceClass;
  /** The linked record's column the key matches. */
  readonly targetColumn: string;
}

const cache = configurationCache<ResourceClass, readonly VersionedLink[]>();

/**
 * Every versioned link of a record of `resourceClass`: its own belongs_to
 * relationships, and the has_many, has_one and polymorphic has_many
 * relationships other Resources declare towards it, so the link counts even
 * when only one side declares it. Empty (and cheap) for an application
 * without versions.
 */
export function versionedLinksOf(resourceClass: ResourceClass): readonly VersionedLink[] {
  return cache(resourceClass, undefined, () => collect(resourceClass));
}

function collect(resourceClass: ResourceClass): VersionedLink[] {
  const links = new Map<string, VersionedLink>();
  const add = (link: VersionedLink | undefined) => {
    if (!link || link.target.model === undefined || versionAttributeOf(link.target) === undefined) return;
    links.set([link.target.type, link.column, link.typeColumn, link.typeValue, link.targetColumn].join('\u0000'), link);
  };
  for (const definition of resourceClass.config.relationships.values()) ownLinks(definition).forEach(add);
  for (const other of registeredResources() as ResourceClass[]) {
    if (other.abstractClass || other.model === undefined) continue;
    for (const definition of other.config.relationships.values()) add(inverseLink(other, definition, resourceClass));
  }
  return [...links.values()];
}

function ownLinks(definition: RelationshipDefinition): VersionedLink[] {
  if (definition.kind === 'belongs_to') {
    const target = relatedResourceIfAny(definition);
    return target ? [{ column: foreignKeyOf(definition), target, targetColumn: definition.primaryKey }] : [];
  }
  if (definition.kind !== 'polymorphic_belongs_to') return [];
  return (definition.groups ?? []).flatMap((group) => {
    const target = relatedResourceIfAny(definition, group.resource ?? group.value);
    if (!target) return [];
    const column = group.foreignKey ?? foreignKeyOf(definition);
    return [{ column, typeColumn: definition.groupBy!, typeValue: group.value, target, targetColumn: definition.primaryKey }];
  });
}

/** `owner`'s has_many/has_one/polymorphic has_many, when it leads to `written`'s records: the link seen from the written side. */
function inverseLink(owner: ResourceClass, definition: RelationshipDefinition, written: ResourceClass): VersionedLink | undefined {
  if (definition.kind !== 'has_many' && definition.kind !== 'has_one' && definition.kind !== 'polymorphic_has_many') return undefined;
  const related = relatedResourceIfAny(definition);
  if (!related || !(written === related || written.prototype instanceof related)) return undefined;
  const column = foreignKeyOf(definition);
  if (definition.kind !== 'polymorphic_has_many') return { column, target: owner, targetColumn: definition.primaryKey };
  return { column, typeColumn: typeColumnOf(definition), typeValue: owner.type, target: owner, targetColumn: definition.primaryKey };
}
