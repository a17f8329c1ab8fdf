import { muralConfig } from '../config.ts';
import { BadRequestError } from '../errors/index.ts';

/**
 * Walks a write's JSON document once, before anything reads it, and refuses
 * what no database should see: NUL characters (they end strings in C drivers
 * and PostgreSQL refuses them in text) in any value or member name, and
 * nesting deeper than `maxDocumentDepth`. Iterative, so a hostile document
 * cannot exhaust the stack.
 */
export function checkDocument(document: unknown): void {
  const pending: Array<{ value: unknown; pointer: string; depth: number }> = [{ value: document, pointer: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, pointer, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\0')) throw bad('invalid_character', 'A string contains a NUL character', pointer);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= muralConfig.maxDocumentDepth) {
      throw bad('document_too_deep', `The document nests deeper than ${muralConfig.maxDocumentDepth} levels`, pointer);
    }
    for (const [key, child] of Object.entries(value)) {
      const at = `${pointer}/${escapePointer(key)}`;
      if (key.includes('\0')) throw bad('invalid_character', 'A member name contains a NUL character', at);
      pending.push({ value: child, pointer: at, depth: depth + 1 });
    }
  }
}

/** RFC 6901: `~` and `/` inside a member name. */
export function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('\0', '\\0');
}

function bad(code: string, detail: string, pointer: string): BadRequestError {
  return new BadRequestError(code, detail, { pointer });
}
