import type { ValidationIssue } from '../errors/index.ts';
import { foreignKeyOf } from '../relationships/relationship-keys.ts';
import { polymorphicParentOf, variantsOf } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';

type ResourceClass = typeof ResourceBase;

/**
 * Where in the resource object a model's validation issue points. A column
 * the Resource does not declare as an attribute is not one a client can
 * send, so the issue points at the resource object rather than at
 * `/attributes/<column>`; a belongs_to's foreign key, at the relationship
 * that sets it; a polymorphic parent's type column (a record
 * created as `tasks` rather than as one of its types), at `/type`, naming
 * the types to create it as.
 */
export function placedIssue(resource: ResourceClass, issue: ValidationIssue): ValidationIssue {
  if (issue.attribute === undefined || issue.member !== undefined || resource.config.attributes.has(issue.attribute)) return issue;
  if (resource.polymorphic?.length && issue.attribute === resource.polymorphicColumn && !polymorphicParentOf(resource)) {
    const types = variantsOf(resource).slice(1).map((child) => child.type);
    return { message: `A ${resource.type} record is created as one of its types: ${types.join(', ')}`, code: 'polymorphic_type_required', member: '/type' };
  }
  for (const relationship of resource.config.relationships.values()) {
    if (relationship.kind === 'belongs_to' && foreignKeyOf(relationship) === issue.attribute) return { ...issue, member: `/relationships/${relationship.name}` };
  }
  return { ...issue, member: '' };
}
