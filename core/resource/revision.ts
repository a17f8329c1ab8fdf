/**
 * Counts declarations. Anything derived from Resource configuration (resolved
 * filters, for one) is cached against it, so declaring something new — even
 * at runtime, as many_to_many's inverse filters are — refreshes the caches.
 */
let current = 0;

export function bumpRevision(): void {
  current++;
}

export function declarationRevision(): number {
  return current;
}
