import { Ajv } from 'ajv';
import { jsonApiSchema } from '../../../support/jsonapi-schema.ts';
import type { FuzzRequest, FuzzResponse } from './fuzz-server.ts';
import { isAdmin } from '../../../support/example-auth.ts';

const validateDocument = new Ajv({ allErrors: true, strict: false }).compile(jsonApiSchema);

/** Frames of a JavaScript stack trace, or paths of source files. */
const STACK_TRACE = /\bat (?:async )?[\w$.<>[\] ]+ \(|\bat (?:file|node):|(?:\/[\w.@-]+)+\.(?:ts|js|mjs|cjs):\d+|node_modules|\bSequelize\w*Error\b/;
/** SQL statements and database error texts. */
const SQL_TEXT =
  /\bSELECT\b[\s\S]{1,300}\bFROM\b|\bINSERT INTO\b|\bUPDATE\b[\s\S]{1,100}\bSET\b|\bDELETE FROM\b|SQLITE_|syntax error|invalid input syntax|\bER_[A-Z_]+|violates (?:foreign key|unique|not-null|check) constraint|\bFOREIGN KEY constraint\b|out of range for type|Incorrect \w+ value/i;

/**
 * What every answer must be, whatever was asked: 2xx or 4xx (503 only with
 * Retry-After), a JSON:API document labelled as one (a write's 204, nothing),
 * and nothing about the server's insides. Returns the broken rule, or undefined.
 */
export function violation(request: FuzzRequest, response: FuzzResponse): string | undefined {
  const { status, headers, text } = response;
  const problem = ((): string | undefined => {
    if (status >= 500 && !(status === 503 && headers.get('retry-after'))) return `status ${status}`;
    if (status < 200 || (status >= 300 && status < 400)) return `status ${status}`;
    // a relationship write that did exactly what it was asked: No Content
    if (status === 204) return text === '' && request.method !== 'GET' ? undefined : `a 204 to a ${request.method} with ${text.length} characters`;
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

type ErrorObject = { source?: { pointer?: unknown; parameter?: unknown }; meta?: { code?: unknown; attribute?: unknown } };

function errorsOf(response: FuzzResponse): ErrorObject[] {
  try {
    const document = JSON.parse(response.text) as { errors?: unknown };
    return Array.isArray(document.errors) ? (document.errors as ErrorObject[]) : [];
  } catch {
    return [];
  }
}

/** Sequelize's own validation messages (`Note.notable_id cannot be null`), which name models and columns. */
const MODEL_TEXT = /\b[A-Z]\w*\.\w+ cannot be (?:null|an array or an object)\b|\bValidation \w+ on \w+ failed\b/;

/**
 * Where each error says the fault is must be somewhere the request has: a
 * `source.pointer` only for a request with a body, a string, and one whose
 * parent member exists in the body (the member itself may be the one
 * missing); a `source.parameter` named in the query string. And no error
 * repeats the model layer's own texts. Returns the broken rule, or undefined.
 */
export function misplacedError(request: FuzzRequest, response: FuzzResponse): string | undefined {
  if (MODEL_TEXT.test(response.text)) return `the model layer's text in the body: "${MODEL_TEXT.exec(response.text)![0]}"`;
  let body: unknown;
  let parsed = false;
  try {
    body = JSON.parse(request.body ?? '');
    parsed = true;
  } catch {
    // a body that is not JSON: its errors point at the whole document
  }
  // a NUL in a parameter's name is named as the two characters \0, never sent back
  const query = request.path.includes('?') ? safeDecode(request.path.slice(request.path.indexOf('?') + 1))?.replaceAll('\u0000', '\\0') : '';
  for (const { source } of errorsOf(response)) {
    if (source === undefined) continue;
    if ('pointer' in source) {
      const { pointer } = source;
      if (typeof pointer !== 'string') return `source.pointer ${JSON.stringify(pointer)}`;
      if (request.body === undefined) return `source.pointer "${pointer}" for a request without a body`;
      if (pointer !== '' && !(parsed && parentExists(body, pointer))) return `source.pointer "${pointer}" names no member of the body`;
    }
    if ('parameter' in source) {
      const name = String(source.parameter).split('[')[0]!;
      if (query !== undefined && !query.includes(name)) return `source.parameter "${String(source.parameter)}" is not in the query string`;
    }
  }
  return undefined;
}

function parentExists(document: unknown, pointer: string): boolean {
  if (!pointer.startsWith('/')) return false;
  const tokens = pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let current = document;
  for (const token of tokens.slice(0, -1)) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, token)) return false;
    current = (current as Record<string, unknown>)[token];
  }
  return typeof current === 'object' && current !== null;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** What the example hides from a guest; a guest's answer names none of it unless the request did. */
const GUARDED_WORDS = ['notes', 'salary'];

/** A guest's answer that mentions what guards hide from it, or says a hidden relationship cannot be written. */
export function guestLeak(request: FuzzRequest, response: FuzzResponse): string | undefined {
  if (isAdmin(request.headers)) return undefined;
  const sent = `${safeDecode(request.path) ?? request.path} ${request.body ?? ''}`;
  for (const word of GUARDED_WORDS) {
    if (!sent.includes(word) && response.text.includes(word)) return `a guest's answer names "${word}"`;
  }
  const unwritable = errorsOf(response).find((e) => e.meta?.code === 'unwritable_relationship' && e.meta.attribute === 'notes');
  return unwritable ? 'a guest is told that notes cannot be written: the hidden relationship exists' : undefined;
}
