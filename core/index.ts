export { Resource } from './proxy/resource.ts';
export type { AttributeDefinition, AttributeOptions, AttributeFlag, AttributeBlock } from './resource/attribute.ts';
export type { FilterOperatorName, FilterOperators, FilterOptions, OperatorFunction } from './resource/filter-definition.ts';
export type { SortFunction, SortOptions } from './resource/sort-definition.ts';
export type { CalculationFunction } from './resource/stat-definition.ts';
export type { StatCalculations } from './resource/declare.ts';
export type { Guard, MethodName, ModelGuard, PlainGuard } from './resource/guard.ts';
export type { ModelOf } from './resource/model-of.ts';
export type { Endpoint, ExtraAttributeHook, PaginateFunction, RelationshipLinkStyle, ResourceConfig, ResourceSettings } from './resource/resource-config.ts';
export { ALL_ACTIONS, type Action } from './resource/action.ts';
export type {
  Adapter, AdapterClass, AdapterTarget, BuiltInCalculation, BuiltInOperator, ConstraintViolation, FilterClause, JoinTable, KeysetKey, ModelDescription, RecordSelection,
  ConditionTree, RelatedCondition, RelatedLink,
  RelatedSortStep, ResolveOptions, SortDirection, ValidationProblem,
} from './adapter/adapter.ts';
export { BUILT_IN_OPERATORS } from './adapter/adapter.ts';
export { fromContext, ContextValue, RULE_ACTIONS, RULE_OPERATORS, type RowCondition, type RowRule, type RuleAction, type RuleOperator, type RuleOperators, type RuleScalar, type ScopeRule, type RowRuleDefinition } from './resource/row-rule.ts';
export { describeRule } from './rules/describe-rule.ts';
export type { SoftDeleteOptions, Trashed } from './resource/soft-delete.ts';
export type { Permissions } from './rules/permissions.ts';
export { Types, lookupType, type TypeDefinition, type Coercion, type TypeName, type TypeNames, type TypeRegistry } from './types/index.ts';
export { context, withContext, type MuralContext } from './context.ts';
export { currentDeadline, currentStatement, timeLeft, withDeadline, withStatement, type Deadline, type DeadlineOptions } from './deadline.ts';
export { DATABASE_CHANNEL, withDatabaseLog, type DatabaseEvent, type DatabaseOperation } from './diagnostics/index.ts';
export { ResourceProxy, type ProxyOptions, type ProxyRequest, type WriteOptions } from './proxy/resource-proxy.ts';
export { ifMatchVersions, ifNoneMatchVersions, noneMatch, parseEntityTags, versionOfTag, type EntityTag, type IfMatch } from './conditional/entity-tags.ts';
export { formatVersion, versionAttributeOf, versionOf } from './conditional/version.ts';
export type { FindParams, NameList, PageParams, PageValue, QueryParams } from './query-params.ts';
export { parseQueryString } from './query/parse-query-string.ts';
export type { JsonApiDocument, PaginationLinks } from './render/document.ts';
export type { ResourceObject } from './render/record-serializer.ts';
export * from './errors/index.ts';
export { muralConfig, configure, type MuralConfig } from './config.ts';
export type {
  AssignBlock, AssignEachBlock, ManyToManyOptions, OnDestroy, ParamsBlock, PolymorphicBelongsToOptions, RelationshipDefinition, RelationshipKind, RelationshipOptions,
  ResourceClassLike, ResourceReference,
} from './resource/relationship-definition.ts';
export type { OnGroup } from './resource/declare-relationship.ts';
export { prepareResources } from './relationships/prepare.ts';
export { checkResources, type CheckResourcesOptions } from './check/check-resources.ts';
export { currentTransaction, readsOwnWrites, withOwnWrites } from './transaction.ts';
export { WriteProxy, type WriteTarget } from './write/write-proxy.ts';
export { RelationshipWrite } from './related/relationship-write.ts';
export type { RelationshipOperation } from './related/find-relationship.ts';
export type { LinkageDocument, LinkageLinks, ResourceIdentifier } from './related/linkage.ts';
export type { AttributesHook, HookName, HookOptions, HookHandler, ModelHook, WriteAction } from './resource/hook-definition.ts';
export type {
  RelationshipIdentifier, RelationshipPayload, WriteDocument, WriteIdentifier, WritePayload, WriteRelationship, WriteResourceObject,
} from './write/write-payload.ts';
export type { StatsResult } from './read/run-stats.ts';
export type { PageCursors } from './read/page-cursors.ts';
export type { SimpleJsonDocument } from './render/simple-json.ts';
export { buildSchema, breakingChanges, visibleSchema } from './schema/index.ts';
export { renderMermaid, renderSvg, resourceGraph, type DiagramEdge, type DiagramEdgeKind, type DiagramNode, type ResourceGraph } from './diagram/index.ts';
export type { Schema, ResourceSchema, AttributeSchema, FilterSchema, RelationshipSchema, SortSchema, FlagValue } from './schema/index.ts';
export { buildOpenApi, prepareOpenApi, type OpenApiOptions, type OpenApiViewName, type PreparedOpenApi } from './openapi/index.ts';
export type {
  HttpMethod, JsonObject, JsonSchema, JsonValue, OpenApiComponents, OpenApiDocument, OpenApiInfo, OperationObject, ParameterObject, PathItemObject, Reference,
  RequestBodyObject, ResponseObject,
} from './openapi/index.ts';
export { resolveGuard, type ResolvedGuard } from './resource/guard.ts';
export { resourceAllows, type ResourceGuardOptions } from './resource/resource-guard.ts';
export { formatMediaType, jsonapiMember, negotiateAccept, negotiateContentType, JSONAPI_MEDIA_TYPE, JSONAPI_VERSION, type Negotiated } from './negotiation/index.ts';
export {
  runOperations, ATOMIC_EXTENSION, type RunOperationsOptions, type AtomicIdentifier, type AtomicIdentity, type AtomicOperation, type AtomicOperationsDocument,
  type AtomicRelationship, type AtomicRelationshipRef, type AtomicResourceObject, type AtomicResourceRef, type AtomicResult, type AtomicResultsDocument,
} from './operations/index.ts';
