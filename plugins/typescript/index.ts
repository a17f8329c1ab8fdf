export { resourceTypes, interfaceName, type ResourceTypesOptions, type SchemaCompiler } from './resource-types.ts';
