import { muralConfig } from '../config.ts';
import { BadRequestError } from '../errors/index.ts';

/**
 * Walks a write's JSON document once, before anything reads it, and refuses
 * what no database should see: NUL characters (they end strings in C drivers
 * and PostgreSQL refuses them in text) and lone surrogates (`"\ud800"`, which
 * no UTF-8 column can hold: each database stores U+FFFD or refuses, and the
 * answer would differ from the row) in any value or member name, and
 * nesting deeper than `maxDocumentDepth`. Iterative, so a hostile document
 * cannot exhaust the stack. In-process writes pass here too, so the rule is
 * the same with or without HTTP.
 */
export function checkDocument(document: unknown): void {
  const pending: Visit[] = [{ value: document, depth: 0 }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const { value, depth } = visit;
    if (typeof value === 'string') {
      if (value.includes('\0')) throw bad('invalid_character', 'A string contains a NUL character', pointerOf(visit));
      if (!wellFormed(value)) throw bad('invalid_character', 'A string contains a lone surrogate (an unpaired \\ud800-\\udfff escape)', pointerOf(visit));
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= muralConfig.maxDocumentDepth) {
      throw bad('document_too_deep', `The document nests deeper than ${muralConfig.maxDocumentDepth} levels`, pointerOf(visit));
    }
    for (const [key, child] of Object.entries(value)) {
      const next: Visit = { value: child, depth: depth + 1, key, parent: visit };
      if (key.includes('\0')) throw bad('invalid_character', 'A member name contains a NUL character', pointerOf(next));
      if (!wellFormed(key)) throw bad('invalid_character', 'A member name contains a lone surrogate (an unpaired \\ud800-\\udfff escape)', pointerOf(next));
      pending.push(next);
    }
  }
}

/** `String.prototype.isWellFormed` (Node 20+; ES2024, past the compiler's `lib`): a native scan, far cheaper than a regular expression. */
function wellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** A value met on the walk, with the way back to the root: its pointer is only written for an error. */
interface Visit {
  value: unknown;
  depth: number;
  key?: string;
  parent?: Visit;
}

function pointerOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(escapePointer(at.key));
  return keys.reverse().map((key) => `/${key}`).join('');
}

/** RFC 6901: `~` and `/` inside a member name. */
export function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('\0', '\\0');
}

function bad(code: string, detail: string, pointer: string): BadRequestError {
  return new BadRequestError(code, detail, { pointer });
}
