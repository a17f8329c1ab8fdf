// npm run docs:api: the API reference of every public entry point, from the declarations and their
// doc comments, into docs/api/ (Markdown, TypeDoc and typedoc-plugin-markdown).
// npm run docs:api -- --check: exit 1, naming the pages, when docs/api/ is not what the sources give.
//
// TypeDoc reads the sources with the compiler API of TypeScript 5.x, which the repository's
// TypeScript 7 does not have: this folder is a package of its own (a file: dev dependency of the
// repository), so that its typescript, not the repository's, is the one TypeDoc finds.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Application, ReflectionKind } from 'typedoc';

const repo = resolve(import.meta.dirname, '../..');
const target = join(repo, 'docs/api');
const check = process.argv.includes('--check');

/** Each entry point, by the name users import it by. */
export const ENTRY_POINTS = {
  mural: 'core/index.ts',
  'mural/express': 'plugins/express/index.ts',
  'mural/sequelize': 'plugins/sequelize/index.ts',
  'mural/typescript': 'plugins/typescript/index.ts',
  'mural-cli': 'commands/index.ts',
};

/** The index page's line for each entry point: its package and what it holds. */
const SUMMARIES = {
  mural: ['mural', '`Resource` and its DSL, `Types`, `withContext`, `configure`, in-process queries and writes, atomic operations, errors, schema, OpenAPI, diagrams, the adapter contract'],
  'mural/express': ['mural', '`muralRouter` and its options, `muralHealth`, `gracefulShutdown`, `answerClientErrors`, `limitSlowClients`, `sendError`'],
  'mural/sequelize': ['mural', '`SequelizeAdapter`, `SequelizeScope`, `configureSqlite`, `configureReplicas`, `likeCondition`, `textCondition`'],
  'mural/typescript': ['mural', '`resourceTypes`: the TypeScript interfaces `mural types` prints'],
  'mural-cli': ['mural-cli', '`defineConfig` and the `mural.config` types, `importResources`, `resourcesFrom`, `runCli`, the plugin and command types (what `mural/cli` exported so far)'],
};

/** docs/api/README.md: the entry points, in the order a reader meets them. */
function indexPage() {
  const rows = Object.entries(SUMMARIES).map(([name, [pkg, holds]]) => `| [\`${name}\`](${name}.md) | \`${pkg}\` | ${holds} |`);
  return [
    '# Mural API reference',
    '',
    'Every export of every entry point, generated from the declarations and their',
    'doc comments by `npm run docs:api` (TypeDoc). Do not edit these pages: change',
    'the doc comment, then run `npm run docs:api`; `npm run docs:api -- --check`',
    '(and `test/docs/api-reference.test.ts`) fails while they are out of date. The',
    '[guides](../../README.md#documentation) explain how the pieces fit together.',
    '',
    '| import from | package | holds |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

const out = check ? mkdtempSync(join(tmpdir(), 'mural-api-')) : target;
const app = await Application.bootstrapWithPlugins({
  entryPoints: Object.values(ENTRY_POINTS).map((file) => join(repo, file)),
  entryPointStrategy: 'resolve',
  tsconfig: join(import.meta.dirname, 'tsconfig.json'),
  plugin: ['typedoc-plugin-markdown'],
  out,
  name: 'Mural API reference',
  readme: 'none',
  disableSources: true,
  disableGit: true,
  sourceLinkTemplate: undefined,
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  hideGenerator: true,
  sort: ['kind', 'alphabetical'],
  // typedoc-plugin-markdown
  entryFileName: 'README.md',
  outputFileStrategy: 'modules',
  hidePageHeader: true,
  hideBreadcrumbs: true,
  useCodeBlocks: true,
  parametersFormat: 'table',
  interfacePropertiesFormat: 'table',
  classPropertiesFormat: 'table',
  enumMembersFormat: 'table',
  typeDeclarationFormat: 'table',
  expandObjects: false,
  useHTMLAnchors: true,
  sanitizeComments: true,
  validation: { notExported: false, invalidLink: true, notDocumented: process.env.API_DOCS_UNDOCUMENTED === '1', unusedMergeModuleWith: false },
  requiredToBeDocumented: ['Class', 'Function', 'Interface', 'TypeAlias', 'Variable', 'Enum'],
  logLevel: 'Warn',
});

const project = await app.convert();
if (!project) {
  console.error('docs:api: TypeDoc could not convert the sources');
  process.exit(2);
}
// TypeDoc names a module after its path (core, plugins/express); users know it by its import name
const byPath = new Map(Object.entries(ENTRY_POINTS).map(([name, file]) => [file.replace(/\/index\.ts$/, ''), name]));
for (const module of project.getChildrenByKind(ReflectionKind.Module)) {
  const name = byPath.get(module.name);
  if (name) module.name = name;
}
app.validate(project);
if (!check) rmSync(target, { recursive: true, force: true });
await app.generateOutputs(project);
if (app.logger.hasErrors()) process.exit(2);
writeFileSync(join(out, 'README.md'), indexPage());

if (check) {
  const stale = compare(out, target);
  rmSync(out, { recursive: true, force: true });
  if (stale.length > 0) {
    console.error(`docs/api is out of date (run npm run docs:api):\n${stale.map((f) => `  ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('docs/api is up to date');
}

/** Pages that differ, or that only one of the two folders has. */
function compare(fresh, committed) {
  const files = (root) => {
    const list = [];
    const walk = (dir) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else list.push(relative(root, path));
      }
    };
    try { walk(root); } catch { /* no folder: every page is missing */ }
    return list.sort();
  };
  const a = files(fresh);
  const b = files(committed);
  const all = [...new Set([...a, ...b])].sort();
  return all.filter((f) => !a.includes(f) || !b.includes(f) || readFileSync(join(fresh, f), 'utf8') !== readFileSync(join(committed, f), 'utf8'));
}
