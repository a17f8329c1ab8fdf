import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { transformSync } from 'esbuild';
import { ENTRY_POINTS, SOURCE_ROOTS, specifierOf } from '../../scripts/entry-points.ts';

/**
 * The import graph of the files Mural ships, read two ways: as the compiled
 * CommonJS sees it (what a circular `require` would break) and as the sources
 * say it, type imports included (what a layer may know of).
 */

/** Paths relative to the repository root, `/`-separated. */
export type Graph = ReadonlyMap<string, readonly string[]>;

export const ROOT = resolve(import.meta.dirname, '..', '..');


/** The packages' own names, as tsconfig's `paths` map them: a shipped file importing one imports that file. */
const SELF_REFERENCES: Record<string, string> = Object.fromEntries(ENTRY_POINTS.map((entry) => [specifierOf(entry), entry.source]));

export function shippedFiles(root = ROOT): string[] {
  const files = SOURCE_ROOTS.flatMap((path) => {
    const absolute = join(root, path);
    if (!existsSync(absolute)) return [];
    if (path.endsWith('.ts')) return [path];
    return readdirSync(absolute, { recursive: true, encoding: 'utf8' }).map((name) => `${path}/${name.split('\\').join('/')}`);
  });
  return files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')).sort();
}

/** The specifiers a file imports once compiled: `require`s load with it, `import()`s when their code runs. */
export interface CompiledImports {
  readonly required: string[];
  readonly dynamic: string[];
}

const verbatimModuleSyntax = readVerbatimModuleSyntax();

function readVerbatimModuleSyntax(): boolean {
  const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions?: { verbatimModuleSyntax?: boolean } };
  return tsconfig.compilerOptions?.verbatimModuleSyntax ?? false;
}

/**
 * Compiles one file as the build does (esbuild, CommonJS) and reads what
 * survives: type-only imports are gone, but `import { type A } from './x.ts'`
 * still loads `./x.ts` under verbatimModuleSyntax, so it counts.
 */
export function compiledImports(source: string): CompiledImports {
  const { code } = transformSync(source, { loader: 'ts', format: 'cjs', target: 'node20', tsconfigRaw: { compilerOptions: { verbatimModuleSyntax } } });
  return { required: specifiers(code, /\brequire\("([^"]+)"\)/g), dynamic: specifiers(code, /\bimport\("([^"]+)"\)/g) };
}

/**
 * Every module a source file names: imports and re-exports, type-only ones
 * included, and `import('x')` whether in code or in a type.
 */
export function sourceImports(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const statements = specifiers(code, /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm);
  const bare = specifiers(code, /^\s*import\s*['"]([^'"]+)['"]/gm);
  const calls = specifiers(code, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g);
  return [...new Set([...statements, ...bare, ...calls])];
}

function specifiers(code: string, pattern: RegExp): string[] {
  return [...code.matchAll(pattern)].map((match) => match[1]!);
}

/**
 * Where a specifier of `from` leads: a shipped file (relative, or the package
 * by its own name), `node:x` for a builtin, or the bare package name.
 */
export function resolveSpecifier(from: string, specifier: string): string {
  if (specifier.startsWith('.')) return relative(ROOT, resolve(ROOT, dirname(from), specifier)).split('\\').join('/');
  if (specifier in SELF_REFERENCES) return SELF_REFERENCES[specifier]!;
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return specifier.startsWith('node:') ? specifier : `node:${specifier}`;
  const [scopeOrName, name] = specifier.split('/');
  return scopeOrName!.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName!;
}

/** Each shipped file with what it imports, resolved; `read` picks the imports to follow. */
export function importGraph(read: (source: string) => readonly string[], files = shippedFiles()): Graph {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imported = read(readFileSync(join(ROOT, file), 'utf8')).map((specifier) => resolveSpecifier(file, specifier));
    graph.set(file, [...new Set(imported)]);
  }
  return graph;
}

/** What loads with each file: the graph in which a circle hands out a half-initialised module. */
export function runtimeGraph(files = shippedFiles()): Graph {
  return importGraph((source) => compiledImports(source).required, files);
}

/** Everything each file names: what it loads, what it may load later, and what it imports for types only. */
export function fullGraph(files = shippedFiles()): Graph {
  return importGraph((source) => {
    const compiled = compiledImports(source);
    return [...new Set([...sourceImports(source), ...compiled.required, ...compiled.dynamic])];
  }, files);
}

/** The shortest chain of imports from `start` to a file `wanted` accepts, `start` first; undefined when none leads there. */
export function importChain(graph: Graph, start: string, wanted: (file: string) => boolean): string[] | undefined {
  const cameFrom = new Map<string, string>([[start, start]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (file !== start && wanted(file)) return pathTo(cameFrom, file, start);
    for (const target of graph.get(file) ?? []) {
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, file);
      queue.push(target);
    }
  }
  return undefined;
}

/** An import that breaks a rule. */
export interface Violation {
  readonly from: string;
  readonly to: string;
}

/**
 * Layers, lowest first; each entry is a file or a folder (ending in `/`).
 * A path's layer is the first holding it, undefined when none does.
 */
export function layerOf(layers: ReadonlyArray<readonly string[]>, path: string): number | undefined {
  const index = layers.findIndex((entries) => entries.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry)));
  return index === -1 ? undefined : index;
}

/** Imports from a file on a layer to one on a higher layer; files on no layer are left to the caller. */
export function upwardImports(graph: Graph, layers: ReadonlyArray<readonly string[]>): Violation[] {
  const violations: Violation[] = [];
  for (const [from, targets] of graph) {
    const own = layerOf(layers, from);
    if (own === undefined) continue;
    for (const to of targets) {
      const target = layerOf(layers, to);
      if (target !== undefined && target > own) violations.push({ from, to });
    }
  }
  return violations;
}

/** Files that import each other in a loop: all of them, and one loop in import order, `a → b → a`. */
export interface Circle {
  readonly files: readonly string[];
  readonly loop: readonly string[];
}

/** One circle per strongly connected group of files (Tarjan). Only edges between the graph's own nodes count. */
export function findCircles(graph: Graph): Circle[] {
  const circles: Circle[] = [];
  for (const files of stronglyConnected(graph)) {
    const first = files[0]!;
    const selfLoop = files.length === 1 && (graph.get(first) ?? []).includes(first);
    if (files.length > 1 || selfLoop) circles.push({ files, loop: loopThrough(graph, new Set(files), first) });
  }
  return circles;
}

function stronglyConnected(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  // iterative, so a long chain of imports cannot overflow the call stack
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    visit(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = (graph.get(frame.node) ?? []).filter((t) => graph.has(t));
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          visit(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) groups.push(popGroup(frame.node));
    }
  }
  return groups;

  function visit(node: string): void {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
  }

  function popGroup(root: string): string[] {
    const group: string[] = [];
    let node: string;
    do {
      node = stack.pop()!;
      onStack.delete(node);
      group.push(node);
    } while (node !== root);
    return group.sort();
  }
}

/** A shortest way from `start` back to itself inside one group (breadth first). */
function loopThrough(graph: Graph, group: ReadonlySet<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!group.has(target)) continue;
      if (target === start) return [...pathTo(cameFrom, node, start), start];
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start];
}

function pathTo(cameFrom: ReadonlyMap<string, string>, end: string, start: string): string[] {
  const path = [end];
  while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
  return path;
}
