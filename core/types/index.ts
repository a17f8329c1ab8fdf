export { Types, lookupType, elementTypeName } from './registry.ts';
export type { Coercion, TypeDefinition } from './type-definition.ts';
