import { Ajv } from 'ajv';
import { jsonApiSchema } from '../../../support/jsonapi-schema.ts';
import type { FuzzRequest, FuzzResponse } from './fuzz-server.ts';

const validateDocument = new Ajv({ allErrors: true, strict: false }).compile(jsonApiSchema);

/** Frames of a JavaScript stack trace, or paths of source files. */
const STACK_TRACE = /\bat (?:async )?[\w$.<>[\] ]+ \(|\bat (?:file|node):|(?:\/[\w.@-]+)+\.(?:ts|js|mjs|cjs):\d+|node_modules|\bSequelize\w*Error\b/;
/** SQL statements and database error texts. */
const SQL_TEXT =
  /\bSELECT\b[\s\S]{1,300}\bFROM\b|\bINSERT INTO\b|\bUPDATE\b[\s\S]{1,100}\bSET\b|\bDELETE FROM\b|SQLITE_|syntax error|invalid input syntax|\bER_[A-Z_]+|violates (?:foreign key|unique|not-null|check) constraint|\bFOREIGN KEY constraint\b|out of range for type|Incorrect \w+ value/i;

/**
 * What every answer must be, whatever was asked: 2xx or 4xx (503 only with
 * Retry-After), a JSON:API document labelled as one, and nothing about the
 * server's insides. Returns the broken rule, or undefined.
 */
export function violation(request: FuzzRequest, response: FuzzResponse): string | undefined {
  const { status, headers, text } = response;
  const problem = ((): string | undefined => {
    if (status >= 500 && !(status === 503 && headers.get('retry-after'))) return `status ${status}`;
    if (status < 200 || (status >= 300 && status < 400)) return `status ${status}`;
    if (!headers.get('content-type')?.startsWith('application/vnd.api+json')) return `content-type ${headers.get('content-type')}`;
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      return 'a body that is not JSON';
    }
    if (!validateDocument(document)) return `an invalid JSON:API document: ${JSON.stringify(validateDocument.errors?.slice(0, 2))}`;
    const isError = typeof document === 'object' && document !== null && 'errors' in document;
    if (isError !== status >= 400) return `${isError ? 'errors' : 'no errors'} with status ${status}`;
    const leak = STACK_TRACE.exec(text) ?? SQL_TEXT.exec(text);
    if (leak) return `internals in the body: "${leak[0].slice(0, 80)}"`;
    return undefined;
  })();
  return problem && `${request.method} ${shorten(request.path)} answered ${problem}; body: ${shorten(text, 600)}`;
}

export function shorten(text: string, length = 300): string {
  return text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const BASELINE = new Map(PROTOTYPES.map((proto) => [proto, Object.getOwnPropertyDescriptors(proto)]));

/**
 * The app runs in this process: a request that writes through `__proto__`
 * changes every object of the test too, and poisons every later request.
 * Reports what changed and puts the prototypes back, so the next run (and
 * fast-check's shrinking) starts clean and the culprit is the request shrunk to.
 */
export function prototypePollution(): string | undefined {
  const changes: string[] = [];
  for (const [proto, original] of BASELINE) {
    const name = `${proto.constructor.name}.prototype`;
    const now = Object.getOwnPropertyDescriptors(proto);
    for (const key of Reflect.ownKeys(now) as Array<keyof typeof now>) {
      if (!Object.hasOwn(original, key)) {
        changes.push(`${name}.${String(key)} = ${shorten(String(now[key]!.value), 40)}`);
        delete (proto as Record<PropertyKey, unknown>)[key];
      } else if (now[key]!.value !== original[key]!.value || now[key]!.get !== original[key]!.get) {
        changes.push(`${name}.${String(key)} was replaced`);
        Object.defineProperty(proto, key, original[key]!);
      }
    }
  }
  return changes.length > 0 ? changes.join(', ') : undefined;
}
