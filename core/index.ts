export { Resource } from './resource/resource.ts';
export type { AttributeDefinition, AttributeOptions, AttributeFlag, AttributeBlock } from './resource/attribute.ts';
export type { FilterOptions, OperatorFunction } from './resource/filter-definition.ts';
export type { SortDirection, SortFunction, SortOptions } from './resource/sort-definition.ts';
export type { CalculationFunction } from './resource/stat-definition.ts';
export type { Guard } from './resource/guard.ts';
export type { Action, Endpoint, ResourceConfig, ResourceSettings } from './resource/resource-config.ts';
export { ALL_ACTIONS } from './resource/resource-config.ts';
export type { Adapter, AdapterClass, AdapterTarget, FilterClause, BuiltInOperator, JoinTable, ValidationProblem, ResolveOptions } from './adapter/adapter.ts';
export { BUILT_IN_OPERATORS } from './adapter/adapter.ts';
export { Types, lookupType, type TypeDefinition, type Coercion } from './types/index.ts';
export { context, withContext, type MuralContext } from './context.ts';
export { ResourceProxy, type ProxyOptions, type ProxyRequest } from './proxy/resource-proxy.ts';
export type { QueryParams } from './query/query-params.ts';
export { parseQueryString } from './query/parse-query-string.ts';
export type { JsonApiDocument, PaginationLinks } from './render/document.ts';
export type { ResourceObject } from './render/record-serializer.ts';
export * from './errors/index.ts';
export { muralConfig, configure, type MuralConfig } from './config.ts';
export type {
  RelationshipDefinition, RelationshipKind, RelationshipOptions, PolymorphicBelongsToOptions, ResourceReference,
} from './relationships/relationship-definition.ts';
export { prepareResources } from './relationships/prepare.ts';
export { currentTransaction } from './write/transaction-context.ts';
export { WriteProxy, type WriteTarget } from './write/write-proxy.ts';
export type { HookName, HookOptions, HookHandler, WriteAction } from './write/hook-definition.ts';
export { buildSchema, breakingChanges } from './schema/index.ts';
export type { Schema, ResourceSchema, AttributeSchema, FilterSchema, RelationshipSchema, SortSchema, FlagValue } from './schema/index.ts';
export { resolveGuard, type ResolvedGuard } from './resource/guard.ts';
