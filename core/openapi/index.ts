export { buildOpenApi, DEFAULT_INFO, prepareOpenApi, type OpenApiOptions, type PathFamily, type PreparedOpenApi } from './build-openapi.ts';
export type * from './openapi-types.ts';
export type { OpenApiViewName } from './openapi-view.ts';
