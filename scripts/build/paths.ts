import { resolve } from 'node:path';

/** The repository's root. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

/** `/`-separated, whatever the platform: how manifests, maps and specifiers spell paths. */
export function slashed(path: string): string {
  return path.split('\\').join('/');
}
