import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { GeneratorPaths } from '../host/project-config.ts';
import type { SourceFile } from './scan-project.ts';

const SOURCE_DIRECTORIES = ['src', 'app', 'lib', 'server'];
const TEST_DIRECTORIES = ['test', 'tests', '__tests__'];
const DEFINES_MODELS = /\bextends\s+Model\b|\.define\s*\(/;
const IMPORTS_SEQUELIZE = /(?:from\s*|require\(\s*)['"]sequelize(?:-typescript)?['"]/;

function isDirectory(root: string, path: string): boolean {
  const full = join(root, path);
  return existsSync(full) && statSync(full).isDirectory();
}

/** The deepest directory holding every file, or `.`. */
function commonDirectory(files: string[]): string {
  if (files.length === 0) return '.';
  const parts = files.map((file) => posix.dirname(file).split('/'));
  const common: string[] = [];
  for (let i = 0; parts.every((p) => p[i] !== undefined && p[i] === parts[0]![i]); i++) common.push(parts[0]![i]!);
  return common.length === 0 ? '.' : common.join('/');
}

/** Where the application's code lives: the Sequelize module's top directory, or a conventional one. */
function sourceDirectory(root: string, sequelizeFile: string | undefined): string {
  const top = sequelizeFile?.includes('/') ? sequelizeFile.split('/')[0]! : undefined;
  return top ?? SOURCE_DIRECTORIES.find((dir) => isDirectory(root, dir)) ?? '.';
}

/** `src/routes.ts` unless the application has a routes file of its own there, which `generate` would not edit. */
function routesFile(root: string, source: string, extension: string): string {
  const candidates = [posix.join(source, `routes${extension}`), posix.join(source, `mural-routes${extension}`)];
  const usable = (path: string) => !existsSync(join(root, path)) || readFileSync(join(root, path), 'utf8').includes('// mural:routes');
  return candidates.find(usable) ?? candidates[1]!;
}

/**
 * Where `generate resource` writes in this application: beside its Resources
 * and models, in its test directory, and a routes file it owns.
 */
export function generatorDefaults(
  root: string,
  files: readonly SourceFile[],
  found: { sequelizeFile?: string; resourceLocations: string[]; extension: string },
): GeneratorPaths {
  const source = sourceDirectory(root, found.sequelizeFile);
  const resourceDirectory = found.resourceLocations.find((location) => isDirectory(root, location));
  const modelFiles = files.filter((f) => IMPORTS_SEQUELIZE.test(f.code) && DEFINES_MODELS.test(f.code)).map((f) => f.path);
  const models = commonDirectory(modelFiles);
  const tests = TEST_DIRECTORIES.find((dir) => isDirectory(root, dir)) ?? 'test';
  return {
    resources: resourceDirectory ?? posix.join(source, 'resources'),
    models: models === '.' || models === source ? posix.join(source, 'models') : models,
    controllers: posix.join(source, 'controllers'),
    tests: posix.join(tests, 'resources'),
    routes: routesFile(root, source, found.extension),
  };
}
