export { typescriptPlugin } from './plugin.ts';
export { resourceTypes, interfaceName } from './resource-types.ts';
