export { buildOpenApi, DEFAULT_INFO, type OpenApiOptions, type PathFamily } from './build-openapi.ts';
export type * from './openapi-types.ts';
