import type { JsonSchema, Reference } from './openapi-types.ts';

/** `$ref`s into the document's components; component names never hold `/` or `~`, so they need no escaping. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

export function parameterRef(name: string): Reference {
  return { $ref: `#/components/parameters/${name}` };
}

export function responseRef(name: string): Reference {
  return { $ref: `#/components/responses/${name}` };
}

/** A component key from its parts: OpenAPI allows letters, digits, `.`, `-` and `_` only. */
export function componentKey(...parts: string[]): string {
  return parts.map((part) => part.replace(/[^A-Za-z0-9_-]/g, '_')).join('.');
}
