export { MuralError, type JsonApiErrorObject, type MuralErrorOptions } from './mural-error.ts';
export { BadRequestError, InvalidQueryError, TypeCoercionError } from './bad-request.ts';
export { RecordNotFound, RouteNotFound, InvalidEndpointError } from './not-found.ts';
export { ConflictError } from './conflict.ts';
export { InternalServerError, ResourceConfigurationError } from './internal.ts';
export { ValidationFailed, UnwritableError, humanize, type ValidationIssue, type RecordLocation } from './validation-failed.ts';
export { ServiceUnavailable } from './service-unavailable.ts';
export { Forbidden } from './forbidden.ts';
