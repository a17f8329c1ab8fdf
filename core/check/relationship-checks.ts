import { foreignKeyOf, otherKeyOf, typeColumnOf } from '../relationships/relationship-keys.ts';
import { singularize } from '../resource/naming.ts';
import type { RelationshipDefinition, ResourceReference } from '../resource/relationship-definition.ts';
import { lookupRelated, type Unresolved } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { CheckedResource } from './model-checks.ts';
import { nearestName } from '../did-you-mean.ts';
import { hint, type ProblemList, type ProblemSubject } from './problem-list.ts';

type ResourceClass = typeof ResourceBase;

/** What the relationship checks share: where problems go, how a Resource is described (once), the Resources a name may mean. */
export interface RelationshipCheck {
  readonly problems: ProblemList;
  describe(resource: ResourceClass): CheckedResource;
  readonly candidates: readonly ResourceClass[];
}

/** A key a relationship reads, and the table that must have it: `model Employee`, `join table employee_teams`. */
interface KeyClaim {
  readonly column: string;
  readonly table: string;
  /** Undefined when nothing describes the table: the key is not checked. */
  readonly columns: readonly string[] | undefined;
  /** `foreign key`, `primary key`, `type column`. */
  readonly role: string;
  /** The relationship option naming the column, when there is one. */
  readonly option?: string;
  /** Whether the declaration named the column itself, rather than Mural inferring it. */
  readonly explicit?: boolean;
}

const onModel = ({ model }: CheckedResource) => ({ table: `model ${model?.name}`, columns: model?.columns });

/**
 * Every relationship leads to a Resource, and its keys are columns where the
 * kind of relationship reads them: a belongs_to's foreign key on its own
 * model, a has_many's on the related one, a many_to_many's in its join table.
 */
export function checkRelationships(checked: CheckedResource, check: RelationshipCheck): void {
  for (const relationship of checked.resource.config.relationships.values()) {
    const subject: ProblemSubject = { resource: checked.resource, member: relationship.name, sites: [`relationship:${relationship.name}`], declaration: relationship };
    if (relationship.kind === 'polymorphic_belongs_to') {
      checkPolymorphicBelongsTo(checked, relationship, subject, check);
      continue;
    }
    const related = resolve(relationship, relationship.resource, subject, check);
    if (related) checkKeys(subject, keyClaims(checked, relationship, related), check.problems);
  }
}

function keyClaims(checked: CheckedResource, relationship: RelationshipDefinition, related: CheckedResource): KeyClaim[] {
  const foreignKey: Omit<KeyClaim, 'table' | 'columns'> = { column: foreignKeyOf(relationship), role: 'foreign key', option: 'foreignKey', explicit: relationship.foreignKey !== undefined };
  const primaryKey: Omit<KeyClaim, 'table' | 'columns'> = { column: relationship.primaryKey, role: 'primary key', option: 'primaryKey' };
  switch (relationship.kind) {
    case 'belongs_to':
      return [{ ...foreignKey, ...onModel(checked) }, { ...primaryKey, ...onModel(related) }];
    case 'polymorphic_has_many':
      return [
        { ...primaryKey, ...onModel(checked) },
        { ...foreignKey, ...onModel(related), option: 'as', explicit: true },
        { column: typeColumnOf(relationship), role: 'type column', ...onModel(related), option: 'as', explicit: true },
      ];
    case 'many_to_many': {
      // a join table no model describes may well exist: only the database could say, and it is not asked at startup
      const join = { table: `join table ${relationship.joinTable}`, columns: checked.model?.tables.get(relationship.joinTable!) };
      return [
        { ...primaryKey, ...onModel(checked) },
        { ...primaryKey, ...onModel(related) },
        { ...foreignKey, ...join, explicit: true },
        // named after the related type, whatever the relationship is called: no option renames it
        { column: otherKeyOf(related.resource), role: 'foreign key', ...join },
      ];
    }
    default:
      return [{ ...primaryKey, ...onModel(checked) }, { ...foreignKey, ...onModel(related) }];
  }
}

/** A polymorphic belongs_to: its type column and every group's key on its own model, and every group's Resource. */
function checkPolymorphicBelongsTo(checked: CheckedResource, relationship: RelationshipDefinition, subject: ProblemSubject, check: RelationshipCheck): void {
  const claims: KeyClaim[] = [{ column: relationship.groupBy!, ...onModel(checked), role: 'type column', option: 'groupBy', explicit: relationship.groupBy !== `${relationship.name}_type` }];
  for (const group of relationship.groups ?? []) {
    const explicit = (group.foreignKey ?? relationship.foreignKey) !== undefined;
    claims.push({ column: group.foreignKey ?? foreignKeyOf(relationship), ...onModel(checked), role: 'foreign key', option: 'foreignKey', explicit });
    const related = resolve(relationship, group.resource ?? group.value, { ...subject, member: `${relationship.name}[${group.value}]` }, check);
    if (related) claims.push({ column: relationship.primaryKey, ...onModel(related), role: 'primary key', option: 'primaryKey' });
  }
  checkKeys(subject, claims, check.problems);
}

function checkKeys(subject: ProblemSubject, claims: readonly KeyClaim[], problems: ProblemList): void {
  const reported = new Set<string>();
  for (const claim of claims) {
    const { column, table, columns, role } = claim;
    if (!columns || columns.includes(column) || reported.has(`${table} ${column}`)) continue;
    reported.add(`${table} ${column}`);
    problems.add(subject, `${role} ${column} is not a column of ${table}${keyFix(claim, nearestName(column, columns))}`);
  }
}

/** A named column is misspelt; an inferred one is fixed by naming the right one in the option, if there is one. */
function keyFix({ option, explicit }: KeyClaim, close: string | undefined): string {
  if (close !== undefined) return explicit || !option ? `; did you mean "${close}"?` : `; did you mean "${close}"? (pass ${option}: "${close}")`;
  return !explicit && option ? `; pass ${option}: naming the column` : '';
}

/** The related Resource, described; a reference leading nowhere is reported, with the nearest name that would lead somewhere. */
function resolve(relationship: RelationshipDefinition, reference: ResourceReference | undefined, subject: ProblemSubject, check: RelationshipCheck): CheckedResource | undefined {
  const lookup = lookupRelated(relationship, reference, check.candidates);
  if ('resource' in lookup) return check.describe(lookup.resource);
  check.problems.add(subject, unresolved(relationship, lookup, reference === undefined, check.candidates));
  return undefined;
}

function unresolved(relationship: RelationshipDefinition, lookup: Unresolved, inferred: boolean, candidates: readonly ResourceClass[]): string {
  if (lookup.wanted.length === 0) return lookup.problem;
  const toOne = relationship.kind === 'belongs_to' || relationship.kind === 'has_one';
  // inferred from the relationship's name: the name that would find a Resource; given: the type or class name to give
  const names = inferred ? candidates.map((r) => (toOne ? singularize(r.type) : r.type)) : candidates.flatMap((r) => [r.type, r.name]);
  return `${lookup.problem}${hint(inferred ? relationship.name : lookup.wanted[0]!, names, 'pass resource: to the relationship')}`;
}
