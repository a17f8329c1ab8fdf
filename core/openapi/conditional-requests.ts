import type { HeaderObject, OperationObject, ParameterObject, PathItemObject, ResponseObject } from './openapi-types.ts';
import { parameterRef, responseRef } from './references.ts';

const IF_NONE_MATCH = 'header.If-None-Match';
const IF_MATCH = 'header.If-Match';
const GET_IF_MATCH = 'header.If-Match.read';
const WRITE_IF_NONE_MATCH = 'header.If-None-Match.write';

const ETAG: HeaderObject = {
  description:
    'A strong entity tag of the bytes sent: `"<hash>"`, or `"<version>.<hash>"` for a record whose Resource declares a version. Send it back in `If-None-Match` (a 304 when unchanged), its version in `If-Match` (a 412 when the record changed).',
  schema: { type: 'string' },
};
const CACHE_CONTROL: HeaderObject = { description: 'The Resource\'s `cacheControl` (default `no-cache`), `private` when the request context may change the answer.', schema: { type: 'string' } };

/** `components.parameters` for the conditional headers. */
export function conditionalParameters(): Record<string, ParameterObject> {
  return {
    [IF_NONE_MATCH]: {
      name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' },
      description: 'Entity tags (or `*`) of representations the client holds: when one is the current ETag, the answer is a 304 with no body.',
    },
    [IF_MATCH]: {
      name: 'If-Match', in: 'header', required: false, schema: { type: 'string' },
      description:
        'Write only if the record is at a version these entity tags carry (a show\'s ETag, or `"<version>"`), or `*` (it exists). Checked with the record locked; a stale version is a 412 and nothing is written. A Resource with no version takes `*` only (400 otherwise).',
    },
    [GET_IF_MATCH]: {
      name: 'If-Match', in: 'header', required: false, schema: { type: 'string' },
      description: 'Answer only if the current ETag is one of these strong tags (for a versioned record, one of its version), or `*`: a 412 otherwise.',
    },
    [WRITE_IF_NONE_MATCH]: {
      name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' },
      description: 'Write only if the record is at none of the versions these entity tags carry; `*` asks that it not exist, so on a record that does the answer is a 412. Nothing is written then.',
    },
  };
}

/** `components.responses` for the conditional answers: the 304 (the 412 is an error response). */
export function conditionalResponses(): Record<string, ResponseObject> {
  return { NotModified: { description: 'The representation the client holds (its `If-None-Match`) is current: no body.', headers: { ETag: ETAG, 'Cache-Control': CACHE_CONTROL } } };
}

/**
 * Every GET takes `If-None-Match` and `If-Match` and answers ETag and
 * Cache-Control, a 304 or a 412; every write to an existing record (PATCH,
 * DELETE, and a relationship's POST) takes `If-Match` and `If-None-Match`.
 */
export function describeConditionalRequests(paths: Record<string, PathItemObject>): void {
  for (const [path, item] of Object.entries(paths)) {
    if (item.get) conditionalGet(item.get);
    for (const write of [item.patch, item.delete, path.includes('/relationships/') ? item.post : undefined]) {
      if (write) write.parameters = [...(write.parameters ?? []), parameterRef(IF_MATCH), parameterRef(WRITE_IF_NONE_MATCH)];
    }
  }
}

function conditionalGet(operation: OperationObject): void {
  operation.parameters = [...(operation.parameters ?? []), parameterRef(IF_NONE_MATCH), parameterRef(GET_IF_MATCH)];
  const ok = operation.responses['200'];
  if (ok && !('$ref' in ok)) ok.headers = { ...ok.headers, ETag: ETAG, 'Cache-Control': CACHE_CONTROL };
  operation.responses = { ...operation.responses, '304': responseRef('NotModified') };
}
