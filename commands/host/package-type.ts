import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Whether Node treats `.js` files in `directory` as ES modules: the nearest package.json says `"type": "module"`. */
export function isModulePackage(directory: string): boolean {
  for (let dir = directory, depth = 0; depth < 64; dir = dirname(dir), depth++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (dirname(dir) === dir) break;
  }
  return false;
}
