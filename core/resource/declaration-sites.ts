import { fileURLToPath } from 'node:url';
import type { SourceLocation } from '../errors/resource-check-failed.ts';

/** One captured call: V8 keeps the frames and formats them (source maps applied) only when `stack` is read. */
interface Capture {
  stack?: string;
  /** Which of the captured frames is the application's. */
  readonly depth: number;
}

/**
 * A declaration's call site, for checkResources' messages, by class, then by
 * member (`attribute:title`, `model`…). Kept on the global object, so that a
 * check run by one copy of Mural finds what another recorded (an app's
 * `require('mural')` beside a CLI's `import`, say); it holds nothing else.
 */
const SITES = Symbol.for('mural.declaration-sites');
const sites = ((globalThis as { [SITES]?: WeakMap<object, Map<string, Capture>> })[SITES] ??= new WeakMap());

/**
 * Remembers where the application declared `key` on `resourceClass`: the
 * frame `depth` calls above the caller (1: whoever called the DSL method
 * calling this), captured but not formatted, so declaring stays cheap. The
 * class's first declaration also locates the class itself (`class`).
 */
export function recordSite(resourceClass: object, key: string, depth = 1): void {
  let own = sites.get(resourceClass);
  if (!own) sites.set(resourceClass, (own = new Map()));
  const capture: Capture = { depth };
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = depth + 1;
  try {
    Error.captureStackTrace(capture, recordSite);
  } finally {
    Error.stackTraceLimit = limit;
  }
  own.set(key, capture);
  if (!own.has('class')) own.set('class', capture);
}

/**
 * Where `key` was declared for `resourceClass` or, when it inherited the
 * declaration, for its nearest ancestor that made it; undefined when no
 * frame names a file (a declaration made by Mural itself, or from `eval`).
 */
export function siteOf(resourceClass: object, key: string): SourceLocation | undefined {
  for (let c: object | null = resourceClass; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as object | null) {
    const capture = sites.get(c)?.get(key);
    if (capture) return parseFrame(capture);
  }
  return undefined;
}

// `    at <static_initializer> (file:///app/resources/employee.ts:12:10)` or `    at /app/x.js:3:7`
const FRAME = /\bat (?:.*?\()?(.+?):(\d+):(\d+)\)?\s*$/;

function parseFrame(capture: Capture): SourceLocation | undefined {
  const frames = (capture.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at '));
  const match = FRAME.exec(frames[capture.depth] ?? '');
  if (!match || match[1]!.startsWith('node:') || match[1]!.includes('<anonymous>')) return undefined;
  const file = match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!;
  return { file, line: Number(match[2]), column: Number(match[3]) };
}

/**
 * Where the application made a declaration (the caller of the DSL method
 * calling this), for checkResources. The root class's own declarations (`id`,
 * `total`) are Mural's: no site in Mural's source is shown as the user's.
 */
export function declaredAt(resourceClass: object, key: string): void {
  if (Object.getPrototypeOf(resourceClass) !== Function.prototype) recordSite(resourceClass, key, 2);
}
