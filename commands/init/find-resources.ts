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
  /** Its `this.endpointNamespace = '…'`, when written as a literal. */
  namespace?: string;
  /** The export it is reachable by: its name, or `default`. */
  exportName: string;
}

const ID = '[A-Za-z_$][\\w$]*';
const IMPORTS_MURAL = /(?:from\s*|require\(\s*)['"]mural['"]/;
const CLASS = new RegExp(`\\bclass\\s+(${ID})\\s+extends\\s+(${ID}(?:\\.${ID})*)`, 'g');

interface Declared extends ResourceClassInfo {
  importsMural: boolean;
  /** Declared inside a function (indented), where importing its module cannot reach it. */
  nested: boolean;
  /** Its body declares what Resources declare: a model, attributes, relationships. */
  usesDsl: boolean;
}

/** What only a Resource's body says; `this.type =` alone is too common to count. */
const RESOURCE_DSL = /\bthis\.(?:model\s*=|(?:attribute|extraAttribute|belongsTo|hasMany|hasOne|manyToMany|polymorphicBelongsTo|polymorphicHasMany)\s*\()/;

function declaredClasses(file: string, code: string): Declared[] {
  const matches = [...code.matchAll(CLASS)];
  const importsMural = IMPORTS_MURAL.test(code);
  return matches.map((match, index) => {
    const body = code.slice(match.index, matches[index + 1]?.index ?? code.length);
    const name = match[1]!;
    const escaped = name.replace(/\$/g, '\\$');
    const defaultExport = new RegExp(`export\\s+default\\s+class\\s+${escaped}\\b|export\\s+default\\s+${escaped}\\s*(;|$)|module\\.exports\\s*=\\s*${escaped}\\s*(;|$)`, 'm');
    const lineStart = code.lastIndexOf('\n', match.index) + 1;
    return {
      name,
      file,
      base: match[2]!,
      abstract: /\babstractClass\s*=\s*true\b/.test(body),
      type: /\bthis\.type\s*=\s*['"]([\w-]+)['"]/.exec(body)?.[1],
      namespace: /\bthis\.endpointNamespace\s*=\s*['"`]([^'"`$]*)['"`]/.exec(body)?.[1],
      exportName: defaultExport.test(code) ? 'default' : name,
      importsMural,
      nested: /^\s+$/.test(code.slice(lineStart, match.index)),
      usesDsl: RESOURCE_DSL.test(body),
    };
  });
}

/**
 * Every Resource class the sources declare: subclasses of mural's `Resource`,
 * then, level by level, subclasses of those (an ApplicationResource's).
 */
export function findResourceClasses(files: ReadonlyArray<{ path: string; code: string }>): ResourceClassInfo[] {
  const declared = files.flatMap((file) => declaredClasses(file.path, file.code));
  const known = resourceClosure(declared);
  return declared.filter((c) => known.has(c) && !c.nested).map(({ importsMural: _, nested: _n, usesDsl: _d, ...info }) => info);
}

/**
 * Resources a function builds (`function defineResources(models) { class
 * BookResource extends Base { … } }`): declared inside a function, extending
 * a Resource or declaring what Resources do. Importing their modules yields
 * only the function, so a config must call it; `init` says so rather than
 * load nothing.
 */
export function resourcesBuiltInFunctions(files: ReadonlyArray<{ path: string; code: string }>): Array<{ name: string; file: string }> {
  const declared = files.flatMap((file) => declaredClasses(file.path, file.code));
  const resourceNames = new Set([...resourceClosure(declared)].map((c) => c.name));
  return declared.filter((c) => c.nested && !c.abstract && (c.usesDsl || resourceNames.has(c.base))).map(({ name, file }) => ({ name, file }));
}

/** The declared classes extending mural's `Resource`, directly or level by level through others. */
function resourceClosure(declared: readonly Declared[]): Set<Declared> {
  const known = new Set(declared.filter((c) => c.importsMural && (c.base === 'Resource' || c.base.endsWith('.Resource'))));
  for (let grew = true; grew; ) {
    const names = new Set([...known].map((c) => c.name));
    const next = declared.filter((c) => !known.has(c) && names.has(c.base));
    next.forEach((c) => known.add(c));
    grew = next.length > 0;
  }
  return known;
}

/** The abstract Resource most Resources extend: what generated ones should extend too. */
export function baseResourceOf(classes: readonly ResourceClassInfo[]): ResourceClassInfo | undefined {
  const subclasses = (base: ResourceClassInfo) => classes.filter((c) => c.base === base.name).length;
  return classes
    .filter((c) => c.abstract)
    .sort((a, b) => subclasses(b) - subclasses(a))[0];
}

/** The namespace most of the concrete Resources set themselves, if any do: the one a generated Resource without a base sets. */
export function commonNamespace(classes: readonly ResourceClassInfo[]): string | undefined {
  const tally = new Map<string, number>();
  for (const c of classes) if (!c.abstract && c.namespace !== undefined) tally.set(c.namespace, (tally.get(c.namespace) ?? 0) + 1);
  return [...tally].sort((a, b) => b[1] - a[1])[0]?.[0];
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
