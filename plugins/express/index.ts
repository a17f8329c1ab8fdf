export { muralRouter, type MuralRouterOptions } from './router.ts';
export { sendError } from './error-response.ts';
export { JSONAPI_MEDIA_TYPE } from './media-type.ts';
export { expressPlugin } from './plugin.ts';
export { answerClientErrors } from './client-errors.ts';
