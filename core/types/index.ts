export { Types, lookupType, elementTypeName, type TypeRegistry } from './registry.ts';
export type { BuiltInTypeName, TypeName, TypeNames } from './type-names.ts';
export type { Coercion, TypeDefinition } from './type-definition.ts';
