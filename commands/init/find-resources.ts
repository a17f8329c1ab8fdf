import { posix } from 'node:path';

/** A class the sources declare as a Resource: it extends `Resource` from mural, or a class that does. */
export interface ResourceClassInfo {
  name: string;
  /** The module declaring it, relative to the project root. */
  file: string;
  base: string;
  abstract: boolean;
  /** Its `this.type = '…'`, when written as a literal. */
  type?: string;
  /** The export it is reachable by: its name, or `default`. */
  exportName: string;
}

const ID = '[A-Za-z_$][\\w$]*';
const IMPORTS_MURAL = /(?:from\s*|require\(\s*)['"]mural['"]/;
const CLASS = new RegExp(`\\bclass\\s+(${ID})\\s+extends\\s+(${ID}(?:\\.${ID})*)`, 'g');

interface Declared extends ResourceClassInfo {
  importsMural: boolean;
}

function declaredClasses(file: string, code: string): Declared[] {
  const matches = [...code.matchAll(CLASS)];
  const importsMural = IMPORTS_MURAL.test(code);
  return matches.map((match, index) => {
    const body = code.slice(match.index, matches[index + 1]?.index ?? code.length);
    const name = match[1]!;
    const escaped = name.replace(/\$/g, '\\$');
    const defaultExport = new RegExp(`export\\s+default\\s+class\\s+${escaped}\\b|export\\s+default\\s+${escaped}\\s*(;|$)|module\\.exports\\s*=\\s*${escaped}\\s*(;|$)`, 'm');
    return {
      name,
      file,
      base: match[2]!,
      abstract: /\babstractClass\s*=\s*true\b/.test(body),
      type: /\bthis\.type\s*=\s*['"]([\w-]+)['"]/.exec(body)?.[1],
      exportName: defaultExport.test(code) ? 'default' : name,
      importsMural,
    };
  });
}

/**
 * Every Resource class the sources declare: subclasses of mural's `Resource`,
 * then, level by level, subclasses of those (an ApplicationResource's).
 */
export function findResourceClasses(files: ReadonlyArray<{ path: string; code: string }>): ResourceClassInfo[] {
  const declared = files.flatMap((file) => declaredClasses(file.path, file.code));
  const known = new Set(declared.filter((c) => c.importsMural && (c.base === 'Resource' || c.base.endsWith('.Resource'))));
  for (let grew = true; grew; ) {
    const names = new Set([...known].map((c) => c.name));
    const next = declared.filter((c) => !known.has(c) && names.has(c.base));
    next.forEach((c) => known.add(c));
    grew = next.length > 0;
  }
  return declared.filter((c) => known.has(c)).map(({ importsMural: _, ...info }) => info);
}

/** The abstract Resource most Resources extend: what generated ones should extend too. */
export function baseResourceOf(classes: readonly ResourceClassInfo[]): ResourceClassInfo | undefined {
  const subclasses = (base: ResourceClassInfo) => classes.filter((c) => c.base === base.name).length;
  return classes
    .filter((c) => c.abstract)
    .sort((a, b) => subclasses(b) - subclasses(a))[0];
}

/**
 * Where the config imports Resources from: a directory when it holds nothing
 * but Resource modules (or is named `resources`), so Resources added there
 * later are picked up; single files otherwise, so that importing never runs
 * the application's other modules (a server entry point, a seed script).
 */
export function resourceLocations(classes: readonly ResourceClassInfo[], files: ReadonlyArray<{ path: string }>): string[] {
  const resourceFiles = [...new Set(classes.map((c) => c.file))];
  const directories = [...new Set(resourceFiles.map((file) => posix.dirname(file)))].sort((a, b) => a.length - b.length);
  const locations: string[] = [];
  const inside = (file: string, directory: string) => file.startsWith(`${directory}/`);
  for (const directory of directories) {
    if (directory === '.' || locations.some((l) => inside(`${directory}/`, l))) continue;
    const modules = files.filter((file) => inside(file.path, directory));
    const onlyResources = modules.every((m) => resourceFiles.includes(m.path) || /^index\.[mc]?[jt]s$/.test(posix.basename(m.path)));
    if (onlyResources || /resources?$/i.test(posix.basename(directory))) locations.push(directory);
  }
  const loose = resourceFiles.filter((file) => !locations.some((l) => inside(file, l)));
  return [...locations, ...loose];
}
