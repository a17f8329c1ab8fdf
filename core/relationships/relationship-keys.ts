import type { ResourceBase } from '../resource/resource-base.ts';
import { singularize } from '../resource/naming.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';

/**
 * The conventional keys of a relationship, for whatever its declaration left
 * out: `<parent>_id` on the children of a has_many, `<name>_id` on the record
 * of a belongs_to, `<as>_id`/`<as>_type` for polymorphic has_many.
 */
export function foreignKeyOf(definition: RelationshipDefinition): string {
  if (definition.foreignKey) return definition.foreignKey;
  const owner = definition.owner as typeof ResourceBase;
  switch (definition.kind) {
    case 'belongs_to':
    case 'polymorphic_belongs_to':
      return `${definition.name}_id`;
    case 'polymorphic_has_many':
      return `${definition.as}_id`;
    default:
      return `${singularize(owner.type)}_id`;
  }
}

/** The `<as>_type` column of a polymorphic has_many. */
export function typeColumnOf(definition: RelationshipDefinition): string {
  return `${definition.as}_type`;
}

/** The join table column that points at the related records of a many_to_many. */
export function otherKeyOf(related: typeof ResourceBase): string {
  return `${singularize(related.type)}_id`;
}
