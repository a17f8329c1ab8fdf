/** What esbuild does differently from plain bundling, per package. */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { CLI_SHARED_PURE_MODULES, ENTRY_POINTS, packageOfSource, specifierOf } from '../entry-points.ts';
import { ROOT, slashed } from './paths.ts';

/*
 * Compiled Mural reads no file of its own at run time: an app that bundles
 * its server moves Mural's code away from the package, and `__dirname` with
 * it (an ES module bundle has none). The explorer's page is the one set of
 * files it serves; the bundle holds them, in place of the module that reads
 * them from the sources' folder. Any other `import.meta.dirname` fails the
 * build rather than ship a path that only holds inside this package.
 */
export const embeddedFiles: Plugin = {
  name: 'embedded-files',
  setup(bundle) {
    bundle.onLoad({ filter: /explorer-files\.ts$/ }, async (args) => {
      // through tsx's loader: the build also runs from plain Node (the compiled bench packs the CLI), which imports no .ts
      const { tsImport } = await import('tsx/esm/api');
      const { explorerFiles } = (await tsImport(args.path, import.meta.url)) as typeof import('../../plugins/express/explorer-files.ts');
      const entries = [...explorerFiles()].map(([name, body]) => {
        const text = body.toString('utf8');
        if (!Buffer.from(text, 'utf8').equals(body)) throw new Error(`plugins/express/explorer/${name} is not UTF-8 text`);
        return `  [${JSON.stringify(name)}, ${JSON.stringify(text)}],`;
      });
      const contents = `const FILES = [
${entries.join('\n')}
];
export function explorerFiles() {
  return new Map(FILES.map(([name, text]) => [name, Buffer.from(text, 'utf8')]));
}
`;
      return { contents, loader: 'js' };
    });
    bundle.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes('node_modules') || !readFileSync(args.path, 'utf8').includes('import.meta.dirname')) return undefined;
      return { errors: [{ text: `${relative(ROOT, args.path)} uses import.meta.dirname, which names no folder once an app bundles Mural; embed what it reads (see embeddedFiles)` }] };
    });
  },
};

/** The runtime's entry points by source file: `core/index.ts` → `mural`. */
const RUNTIME_SPECIFIERS = new Map(ENTRY_POINTS.filter((e) => e.package === 'mural').map((e) => [e.source, specifierOf(e)]));

/**
 * The runtime's package's name for a repository file the CLI imports, when
 * it is a runtime entry point; `undefined` for the CLI's own files and the
 * pure modules it may compile in; an error for any other runtime file, which
 * the CLI could only reach through a copy of the runtime: two Resource
 * classes, two type registries, two request contexts.
 */
export function runtimeSpecifierFor(file: string): string | undefined | Error {
  if (packageOfSource(file) === 'mural-cli' || CLI_SHARED_PURE_MODULES.includes(file)) return undefined;
  return RUNTIME_SPECIFIERS.get(file) ?? new Error(`the CLI imports ${file}, which only the runtime ships: import it from one of the runtime's entry points (${[...RUNTIME_SPECIFIERS.values()].join(', ')})`);
}

/** The CLI loads the runtime by package name, from the app's node_modules, never a copy of its own. */
export const runtimeAsPackage: Plugin = {
  name: 'runtime-as-package',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.{1,2}\// }, (args) => {
      const file = slashed(relative(ROOT, resolve(args.resolveDir, args.path)));
      const specifier = runtimeSpecifierFor(file);
      if (specifier instanceof Error) return { errors: [{ text: `${slashed(relative(ROOT, args.importer))}: ${specifier.message}` }] };
      return specifier === undefined ? undefined : { path: specifier, external: true };
    });
  },
};
