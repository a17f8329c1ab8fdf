import { ResourceConfigurationError } from '../errors/index.ts';
import type { ResourceConfig } from './resource-config.ts';
import { bumpRevision } from './revision.ts';
import type {
  PolymorphicBelongsToOptions,
  PolymorphicGroup,
  RelationshipDefinition,
  RelationshipKind,
  RelationshipOptions,
  ManyToManyOptions,
  OnDestroy,
  ResourceReference,
} from './relationship-definition.ts';

/** Declares one value of a polymorphic belongs_to's type column. */
export type OnGroup = (value: string, options?: { resource?: ResourceReference; foreignKey?: string }) => void;

export function declareRelationship(
  config: ResourceConfig,
  owner: object,
  kind: RelationshipKind,
  name: string,
  options: RelationshipOptions | ManyToManyOptions,
): RelationshipDefinition {
  const { foreignKey, joinTable } = keys(owner, kind, name, options);
  const definition: RelationshipDefinition = {
    name,
    kind,
    resource: options.resource,
    foreignKey,
    joinTable,
    primaryKey: options.primaryKey ?? 'id',
    readable: options.readable ?? true,
    writable: options.writable ?? true,
    link: options.link ?? true,
    single: options.single ?? false,
    alwaysIncludeResourceIds: options.alwaysIncludeResourceIds ?? false,
    as: options.as,
    params: options.params,
    assignEach: options.assignEach,
    assign: options.assign,
    description: options.description,
    ...('onDestroy' in options && options.onDestroy !== undefined ? { onDestroy: onDestroyOf(owner, name, options.onDestroy) } : {}),
    owner,
  };
  bumpRevision();
  config.relationships.set(name, definition);
  return definition;
}

export function declarePolymorphicBelongsTo(
  config: ResourceConfig,
  owner: object,
  name: string,
  options: PolymorphicBelongsToOptions,
  groups: (on: OnGroup) => void,
): void {
  const collected: PolymorphicGroup[] = [];
  groups((value, groupOptions = {}) => collected.push({ value, ...groupOptions }));
  if (collected.length === 0) {
    throw new ResourceConfigurationError(`polymorphicBelongsTo "${name}" needs at least one on(value)`);
  }
  const definition = declareRelationship(config, owner, 'polymorphic_belongs_to', name, options);
  config.relationships.set(name, { ...definition, groupBy: options.groupBy ?? `${name}_type`, groups: collected });
}

function onDestroyOf(owner: object, name: string, value: unknown): OnDestroy {
  if (value === 'unlink' || value === 'refuse') return value;
  throw new ResourceConfigurationError(`${(owner as { name: string }).name}.${name}: onDestroy must be 'unlink' or 'refuse', not ${JSON.stringify(value)}`);
}

function keys(owner: object, kind: RelationshipKind, name: string, options: RelationshipOptions | ManyToManyOptions) {
  const fk = options.foreignKey;
  if (kind === 'many_to_many') {
    if (!fk || typeof fk !== 'object') {
      throw new ResourceConfigurationError(`manyToMany "${name}" needs foreignKey: { <join table>: <key of this side> }`);
    }
    const [joinTable, foreignKey] = Object.entries(fk)[0]!;
    return { joinTable, foreignKey };
  }
  if (fk !== undefined && typeof fk !== 'string') {
    throw new ResourceConfigurationError(`${(owner as { name: string }).name}.${name}: foreignKey must be a column name`);
  }
  if (kind === 'polymorphic_has_many' && !options.as) {
    throw new ResourceConfigurationError(`polymorphicHasMany "${name}" needs as: (the polymorphic name, e.g. "notable")`);
  }
  return { foreignKey: fk, joinTable: undefined };
}
