export { buildSchema } from './build-schema.ts';
export { breakingChanges } from './diff-schema.ts';
export type * from './schema-types.ts';
export { visibleSchema } from './visible-schema.ts';
