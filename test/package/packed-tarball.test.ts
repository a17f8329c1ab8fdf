/**
 * What users install: the packed tarballs of the runtime (`mural`) and the
 * CLI (`mural-cli`) installed into fresh apps outside this repository (ES
 * modules, CommonJS on Express 4, tsx, TypeScript compiled with tsc, a
 * bundled app), each serving Resources through `muralRouter` on SQLite, the
 * CLI as a dev dependency where its developers run `mural`.
 */
import test, { type ExecutionContext } from 'ava';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  installApp, installedVersion, npmInstall, packTarballs, removeDirectory, repo, runIn, scratchDirectory, startServer, type RunningServer, type Tarballs,
} from '../support/packed-app.ts';
import { assertServerTiming, RUNTIME_PEERS, serveAndQuery } from '../support/packed-app-checks.ts';
import { readmeSteps } from '../support/readme-steps.ts';

const scratch = scratchDirectory();
let tarballs: Promise<Tarballs> | undefined;
const packed = () => (tarballs ??= packTarballs(scratch));

const runtime = RUNTIME_PEERS;
/** Existing apps are often on Express 4; the CommonJS app is one. */
const runtimeOnExpress4 = [`express@${installedVersion('express-4')}`, ...runtime.slice(1)];
const typescript = ['typescript', '@types/node', '@types/express', 'expect-type'].map((name) => `${name}@${installedVersion(name)}`);
const apps = new Map<string, Promise<string>>();
/** Each app is installed once, on first use, the CLI as a dev dependency; installs run concurrently with other tests. */
const app = (name: string, packages: string[] = runtime) => {
  if (!apps.has(name)) apps.set(name, packed().then((built) => installApp(scratch, name, { tarballs: built, packages, cli: true })));
  return apps.get(name)!;
};

test.after.always(() => removeDirectory(scratch));

test('a plain ES module app imports mural and serves an include query', async (t) => {
  t.timeout(5 * 60_000);
  await serveAndQuery(t, process.execPath, ['server.js'], await app('esm'));
});

test('a CommonJS app on Express 4 requires mural and serves an include query, with Server-Timing when it asks', async (t) => {
  t.timeout(5 * 60_000);
  await serveAndQuery(t, process.execPath, ['server.js'], await app('commonjs', runtimeOnExpress4), assertServerTiming);
});

test('the installed package loads as one bundle exporting plain values, and stack traces still map to the shipped sources line for line', async (t) => {
  t.timeout(5 * 60_000);
  // every module of the package a server loads; then an error thrown inside Mural, through the source maps
  const script = `
    const { dirname, sep } = require('node:path');
    const mural = require('mural');
    require('mural/express');
    require('mural/sequelize');
    const dist = dirname(dirname(dirname(require.resolve('mural')))) + sep;
    const modules = Object.keys(require.cache).filter((file) => file.startsWith(dist));
    const names = modules.map((file) => file.slice(dist.length).split(sep).join('/')).sort();
    const getters = modules.flatMap((file) => Object.getOwnPropertyNames(require.cache[file].exports)
      .filter((name) => Object.getOwnPropertyDescriptor(require.cache[file].exports, name).get).map((name) => file + ' ' + name));
    let stack = '';
    try { class Broken extends mural.Resource { static { this.attribute('a', 'no_such_type'); } } } catch (error) { stack = error.stack; }
    console.log(JSON.stringify({ names, getters, stack }));`;
  const result = await runIn(await app('commonjs', runtimeOnExpress4), process.execPath, ['--enable-source-maps', '-e', script]);
  t.is(result.code, 0, result.err);
  const { names, getters, stack } = JSON.parse(result.out) as { names: string[]; getters: string[]; stack: string };
  t.deepEqual(names, ['cjs/core/index.js', 'cjs/mural.js', 'cjs/plugins/express/index.js', 'cjs/plugins/sequelize/index.js']);
  t.deepEqual(getters, []);
  const frame = (source: string) => new RegExp(`node_modules/mural/${source.replace('.', '\\.')}:(\\d+):`).exec(stack)?.[1];
  const lineOf = (source: string, text: string) => String(readFileSync(join(repo, source), 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1);
  t.is(frame('core/types/registry.ts'), lineOf('core/types/registry.ts', 'throw new ResourceConfigurationError(`Unknown type'), stack);
  t.is(frame('core/resource/resource-base.ts'), lineOf('core/resource/resource-base.ts', 'declareAttribute(configOf(this), this.name, name, type'), stack);
});

test('require(\'mural\') runs the core alone: Express, Sequelize and the CLI load only with the entry point that needs them', async (t) => {
  t.timeout(5 * 60_000);
  const script = `
    const loaded = () => [...new Set(Object.keys(require.cache).flatMap((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1] ?? []))].sort();
    const mural = require('mural');
    const core = loaded();
    require('mural/sequelize');
    const sequelize = loaded();
    require('mural/express');
    console.log(JSON.stringify({ core, sequelize, express: loaded(), resource: typeof mural.Resource }));`;
  const result = await runIn(await app('commonjs', runtimeOnExpress4), process.execPath, ['-e', script]);
  t.is(result.code, 0, result.err);
  const { core, sequelize, express, resource } = JSON.parse(result.out) as Record<string, string[]> & { resource: string };
  t.is(resource, 'function');
  t.deepEqual(core, ['mural']);
  t.true(sequelize.includes('sequelize') && !sequelize.includes('express'), sequelize.join(' '));
  t.true(express.includes('express') && !express.includes('commander'), express.join(' '));
});

test('an app bundled with esbuild, mural included, runs as an ES module and as CommonJS', async (t) => {
  t.timeout(5 * 60_000);
  const cwd = await app('esm');
  writeFileSync(join(cwd, 'bundle-me.js'), `import { AuthorResource, seed } from './library.js';
seed()
  .then(() => AuthorResource.all({ include: 'books', sort: 'name' }).toJsonapi())
  .then((document) => console.log(JSON.stringify([document.data.map((a) => a.attributes.name), document.included.length])));`);
  // the server too, explorer included: the bundle moves Mural's code away from any folder of the package
  writeFileSync(join(cwd, 'serve-me.js'), `import express from 'express';
import { muralRouter } from 'mural/express';
import { AuthorResource, BookResource, seed } from './library.js';
seed().then(() => {
  const app = express();
  app.use(muralRouter({ resources: [AuthorResource, BookResource] }));
  const server = app.listen(0, () => console.log(\`listening \${server.address().port}\`));
  process.on('SIGTERM', () => server.close());
});`);
  const { build } = await import('esbuild');
  // esbuild's own recipe for CommonJS code inside an ES module bundle: a require of its own
  const banner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
  for (const [format, outfile] of [['esm', 'out/app.mjs'], ['cjs', 'out/app.cjs']] as const) {
    const built = await build({ absWorkingDir: cwd, entryPoints: ['bundle-me.js'], outfile, bundle: true, platform: 'node', format, target: 'node20', banner: format === 'esm' ? { js: banner } : {}, external: ['sequelize', 'sqlite3', 'express'], logLevel: 'silent', metafile: true });
    t.deepEqual(built.warnings, [], format);
    // the CLI and its tools (commander, tsx and esbuild, prompts, chalk, json-schema-to-typescript and prettier) stay out of the app's bundle
    const packages = new Set(Object.keys(built.metafile?.inputs ?? {}).flatMap((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []));
    t.deepEqual([...packages].sort(), ['mural'], format);
    const result = await runIn(cwd, process.execPath, [outfile]);
    t.is(result.code, 0, `${format}: ${result.err}`);
    t.is(result.out.trim(), '[["Ada Lovelace","Mary Shelley"],3]', format);
    const server = outfile.replace('app', 'server');
    const served = await build({ absWorkingDir: cwd, entryPoints: ['serve-me.js'], outfile: server, bundle: true, platform: 'node', format, target: 'node20', banner: format === 'esm' ? { js: banner } : {}, external: ['sequelize', 'sqlite3', 'express'], logLevel: 'silent' });
    t.deepEqual(served.warnings, [], format);
    await serveAndQuery(t, process.execPath, [server], cwd);
  }
});

test('a TypeScript app run through tsx serves an include query', async (t) => {
  t.timeout(5 * 60_000);
  const cwd = await app('tsx', [...runtime, `tsx@${installedVersion('tsx')}`]);
  await serveAndQuery(t, join(cwd, 'node_modules/.bin/tsx'), ['server.ts'], cwd);
});

/**
 * The TypeScript app, compiled with its own tsc, its database created and
 * seeded by one run of its server. Two tests share it and run concurrently;
 * seeding here, once, keeps them from both seeding app.db at the same time.
 */
let typescriptApp: Promise<string> | undefined;
const compiledTypescriptApp = () => (typescriptApp ??= (async () => {
  const cwd = await app('typescript', [...runtime, ...typescript]);
  copyTypeFixtures(cwd);
  const compiled = await runIn(cwd, join(cwd, 'node_modules/.bin/tsc'), ['-p', '.']);
  if (compiled.code !== 0) throw new Error(`tsc failed in the TypeScript app:\n${compiled.out}${compiled.err}`);
  await (await startServer(process.execPath, ['dist/server.js'], cwd)).stop();
  return cwd;
})());

/** The type tests of test/types, which import only package names: an app compiling them checks the shipped declarations. */
function copyTypeFixtures(cwd: string): void {
  cpSync(join(repo, 'test/types'), join(cwd, 'src/types'), { recursive: true });
}

test('the type tests compile against the packed declarations in a CommonJS TypeScript app too', async (t) => {
  t.timeout(5 * 60_000);
  const cwd = await app('types-commonjs', [...runtime, ...typescript]);
  copyTypeFixtures(cwd);
  const compiled = await runIn(cwd, join(cwd, 'node_modules/.bin/tsc'), ['-p', '.']);
  t.is(compiled.code, 0, compiled.out + compiled.err);
});

test('a TypeScript app (module nodenext) compiles with tsc, type tests included, and runs on plain node', async (t) => {
  t.timeout(5 * 60_000);
  await serveAndQuery(t, process.execPath, ['dist/server.js'], await compiledTypescriptApp());
});

test('in the TypeScript app, mural init, generate resource, schema export, schema check and query run from node_modules/.bin', async (t) => {
  t.timeout(5 * 60_000);
  // app.db is already seeded by the server's first run; the CLI reads the same database
  const cwd = await compiledTypescriptApp();
  const mural = (...args: string[]) => runIn(cwd, join(cwd, 'node_modules/.bin/mural'), args);
  const expectSuccess = async (...args: string[]) => {
    const result = await mural(...args);
    t.is(result.code, 0, `mural ${args.join(' ')}:\n${result.out}${result.err}`);
    return result.out;
  };

  const init = await expectSuccess('init');
  t.regex(init, /create mural\.config\.ts/);
  const config = readFileSync(join(cwd, 'mural.config.ts'), 'utf8');
  t.regex(config, /from 'mural-cli'/);
  t.regex(config, /src\/db\.(js|ts)/);

  t.regex(await expectSuccess('guards'), /No guards|guard/i);
  await expectSuccess('schema', 'export');
  const exported = JSON.parse(readFileSync(join(cwd, 'schema.json'), 'utf8')) as { resources: Array<{ name: string }> };
  t.deepEqual(exported.resources.map((r) => r.name), ['AuthorResource', 'BookResource']);
  t.regex(await expectSuccess('schema', 'check'), /compatible|no breaking/i);

  const generated = await expectSuccess('generate', 'resource', 'Publisher', 'name:string', 'founded:integer');
  t.regex(generated, /create src\/resources\/publisher-resource\.ts/);
  // what generate wrote compiles with the app's own settings, and the config loads it
  const recompiled = await runIn(cwd, join(cwd, 'node_modules/.bin/tsc'), ['-p', '.']);
  t.is(recompiled.code, 0, recompiled.out + recompiled.err);
  await expectSuccess('schema', 'export', '--force');
  const withPublisher = JSON.parse(readFileSync(join(cwd, 'schema.json'), 'utf8')) as { resources: Array<{ name: string }> };
  t.deepEqual(withPublisher.resources.map((r) => r.name), ['AuthorResource', 'BookResource', 'PublisherResource']);

  const table = await expectSuccess('query', 'books', '--filter', 'title[prefix]=Fr', '--include', 'author');
  t.regex(table, /Frankenstein/);
  t.notRegex(table, /The Last Man/);
  t.regex(table, /Mary Shelley/);
});

/** `mural query authors --include books --format json` in an app, with the CLI its install put on the path. */
async function queryAuthors(t: ExecutionContext, cwd: string): Promise<void> {
  const result = await runIn(cwd, join(cwd, 'node_modules/.bin/mural'), ['query', 'authors', '--include', 'books', '--sort', 'name', '--format', 'json']);
  t.is(result.code, 0, result.out + result.err);
  const document = JSON.parse(result.out) as { data: Array<{ name: string; books: Array<{ title: string }> }> };
  t.deepEqual(document.data.map((a) => [a.name, a.books.map((b) => b.title).sort()]), [
    ['Ada Lovelace', ['Notes on the Analytical Engine']],
    ['Mary Shelley', ['Frankenstein', 'The Last Man']],
  ]);
}

test('the CLI runs an ES module app\'s mural.config.js with no TypeScript loader installed', async (t) => {
  t.timeout(5 * 60_000);
  const cwd = await app('esm');
  removeDirectory(join(cwd, 'node_modules/tsx'));
  await queryAuthors(t, cwd);
});

test('the CLI and a CommonJS app run where Node cannot require() an ES module (Node 20.17 and 20.18)', async (t) => {
  t.timeout(5 * 60_000);
  const cwd = await app('commonjs', runtimeOnExpress4);
  const olderNode = { NODE_OPTIONS: '--no-experimental-require-module' };
  const result = await runIn(cwd, join(cwd, 'node_modules/.bin/mural'), ['query', 'authors', '--include', 'books', '--sort', 'name', '--format', 'json'], olderNode);
  t.is(result.code, 0, result.out + result.err);
  t.deepEqual((JSON.parse(result.out) as { data: Array<{ name: string }> }).data.map((a) => a.name), ['Ada Lovelace', 'Mary Shelley']);
  const help = await runIn(cwd, join(cwd, 'node_modules/.bin/mural'), ['--help'], olderNode);
  t.is(help.code, 0, help.out + help.err);
  t.regex(help.out, /schema/);
  // every package the bundles require(), not only those these commands reach, must be requirable there
  const script = `
    const { readFileSync } = require('node:fs');
    const bundle = readFileSync(require.resolve('mural').replace(/core[\\\\/]index\\.js$/, 'mural.js'), 'utf8')
      + readFileSync(require.resolve('mural-cli').replace(/commands[\\\\/]index\\.js$/, 'mural-cli.js'), 'utf8');
    const packages = [...new Set([...bundle.matchAll(/\\brequire\\("([^".][^"]*)"\\)/g)].map((m) => m[1]))].filter((p) => !p.startsWith('node:'));
    const refused = packages.filter((p) => { try { require(p); return false; } catch (error) { return error.code === 'ERR_REQUIRE_ESM'; } });
    console.log(JSON.stringify({ packages, refused }));`;
  const scanned = await runIn(cwd, process.execPath, ['--no-experimental-require-module', '-e', script]);
  t.is(scanned.code, 0, scanned.err);
  const { packages, refused } = JSON.parse(scanned.out) as { packages: string[]; refused: string[] };
  t.true(packages.includes('sequelize') && packages.includes('commander') && packages.includes('mural'), packages.join(' '));
  t.deepEqual(refused, []);
});

test('the CLI runs a CommonJS app\'s mural.config.js, sharing its Resources\' module instance', async (t) => {
  t.timeout(5 * 60_000);
  const cwd = await app('commonjs', runtimeOnExpress4);
  await queryAuthors(t, cwd);
  // the app registered `isbn` in the registry it required; the CLI's schema reads the same one
  const exported = await runIn(cwd, join(cwd, 'node_modules/.bin/mural'), ['schema', 'export', '--out', 'schema.json']);
  t.is(exported.code, 0, exported.out + exported.err);
  const schema = JSON.parse(readFileSync(join(cwd, 'schema.json'), 'utf8')) as {
    types: Record<string, { description: string }>;
    resources: Array<{ type: string; attributes: Record<string, { type: string }> }>;
  };
  t.is(schema.types.isbn?.description, 'An ISBN-13, digits only.');
  t.is(schema.resources.find((r) => r.type === 'books')?.attributes.isbn?.type, 'isbn');
});

test('README: the steps of "Add Mural to an existing app" work as written, in a new directory', async (t) => {
  t.timeout(5 * 60_000);
  const steps = readmeSteps('Add Mural to an existing app');
  // the existing app: a database, a model and its rows, and the runtime installed from its tarball (the README's
  // `npm install mural`); the CLI's tarball is installed at the README's step
  const built = await packed();
  const cwd = await installApp(scratch, 'bookshop', { tarballs: built, packages: runtime, cli: false });
  const seeded = await runIn(cwd, process.execPath, ['seed.js']);
  t.is(seeded.code, 0, seeded.err);
  for (const file of steps.files) {
    mkdirSync(dirname(join(cwd, file.path)), { recursive: true });
    writeFileSync(join(cwd, file.path), file.content);
  }
  t.deepEqual(steps.files.map((f) => f.path), ['resources/book-resource.js', 'server.js']);
  let server: RunningServer | undefined;
  try {
    for (const [command, ...args] of steps.commands) {
      const step = [command, ...args].join(' ');
      if (command === 'npm' && args.at(-1) === 'mural') {
        t.deepEqual(args, ['install', 'mural'], step);
        t.true(existsSync(join(cwd, 'node_modules/mural/package.json')), step);
      } else if (command === 'npm') {
        t.deepEqual(args, ['install', '--save-dev', 'mural-cli'], step);
        await npmInstall(cwd, ['--save-dev', built['mural-cli']]);
      } else if (command === 'node' && args.at(-1) === '&') {
        server = await startServer(process.execPath, args.slice(0, -1), cwd, {}, /localhost:(\d+)/);
      } else if (command === 'curl') {
        const url = new URL(`http://${args.at(-1)!}`);
        url.host = `127.0.0.1:${server!.port}`;
        const response = await fetch(url);
        t.is(response.status, 200, step);
        const document = (await response.json()) as { data: Array<{ type: string; attributes: { title: string } }> };
        t.deepEqual(document.data.map((book) => book.attributes.title), ['Night Film', 'The Night Circus', 'Tender Is the Night'], step);
      } else if (command === 'npx') {
        const result = await runIn(cwd, join(cwd, 'node_modules/.bin', args[0]!), args.slice(1));
        t.is(result.code, 0, `${step}:\n${result.out}${result.err}`);
        for (const [, created] of result.out.matchAll(/^create (\S+)$/gm)) t.true(existsSync(join(cwd, created!)), `${step} created ${created}`);
        if (args[1] === 'query') t.regex(result.out, /Night Film[\s\S]*The Night Circus[\s\S]*Tender Is the Night[\s\S]*Frankenstein/);
      } else {
        t.fail(`README step not understood: ${step}`);
      }
    }
  } finally {
    await server?.stop();
  }
  t.true(existsSync(join(cwd, 'mural.config.js')));
  const schema = JSON.parse(readFileSync(join(cwd, 'schema.json'), 'utf8')) as { resources: Array<{ name: string }> };
  t.deepEqual(schema.resources.map((r) => r.name), ['BookResource']);
});
