export { muralRouter, type MuralRouterOptions } from './router.ts';
export type { MuralOpenApiOptions } from './openapi-route.ts';
export type { ExplorerDocument } from './explorer-route.ts';
export { sendError, type SendErrorOptions } from './error-response.ts';
export { JSONAPI_MEDIA_TYPE } from './media-type.ts';
export { expressPlugin } from './plugin.ts';
export { muralHealth, type MuralHealthOptions } from './health.ts';
export { gracefulShutdown, type GracefulShutdownOptions } from './graceful-shutdown.ts';
export { answerClientErrors } from './client-errors.ts';
