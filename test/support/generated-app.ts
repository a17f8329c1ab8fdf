import type { ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runMural } from './cli.ts';
import { createApp, removeApp } from './mural-app.ts';

/**
 * Applications for `mural generate resource` to write into and whose
 * generated tests are then run as the user would, by the command it prints.
 * Importing this module does not load the bridge CommonJS configs need: a
 * test file of CommonJS applications imports mural-package-bridge.ts itself.
 */
const run = promisify(execFile);
const repo = process.cwd();

export type Style = 'typescript' | 'esm' | 'commonjs';
export type Runner = 'node' | 'vitest' | 'ava';

let made = 0;

export const extension = (style: Style) => (style === 'typescript' ? 'ts' : 'js');

function databaseModule(style: Style): string {
  if (style === 'commonjs') {
    return "const path = require('node:path');\nconst { Sequelize } = require('sequelize');\n\nconst sequelize = new Sequelize({ dialect: 'sqlite', storage: path.join(__dirname, '..', 'dev.db'), logging: false });\n\nmodule.exports = { sequelize };\n";
  }
  return "import { fileURLToPath } from 'node:url';\nimport { Sequelize } from 'sequelize';\n\nexport const sequelize = new Sequelize({ dialect: 'sqlite', storage: fileURLToPath(new URL('../dev.db', import.meta.url)), logging: false });\n";
}

/**
 * A small application in `style` whose development database is the SQLite
 * file dev.db, its generated tests written for `runner`; removed after the test.
 * `avaTypeScript: false` leaves .ts out of ava's configuration.
 */
export function generatedApp(t: ExecutionContext, style: Style, runner: Runner, options: { avaTypeScript?: boolean } = {}): string {
  const ext = extension(style);
  const commonjs = style === 'commonjs';
  const generator = {
    language: style === 'typescript' ? 'typescript' : 'javascript', testRunner: runner, sequelize: `src/db.${ext}#sequelize`,
    resources: 'src/resources', models: 'src/models', controllers: 'src/controllers', routes: `src/routes.${ext}`,
  };
  const config = commonjs
    ? `const { defineConfig } = require('mural-cli');\n\nmodule.exports = defineConfig({ resources: [], generator: ${JSON.stringify(generator)} });\n`
    : `import { defineConfig } from 'mural-cli';\n\nexport default defineConfig({ resources: [], generator: ${JSON.stringify(generator)} });\n`;
  // tests run concurrently in a process: each application has a directory of its own
  const dir = createApp(`generated-app-${++made}`, {
    'package.json': JSON.stringify({ name: 'app', private: true, ...(commonjs ? {} : { type: 'module' }) }),
    [`src/db.${ext}`]: databaseModule(style),
    [`mural.config.${ext}`]: config,
  });
  t.teardown(() => removeApp(dir));
  if (options.avaTypeScript === false) {
    // ava configured in package.json, for JavaScript only (createApp wrote a config file that runs TypeScript)
    rmSync(join(dir, 'ava.config.mjs'));
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, ava: { extensions: ['js'] } }));
  }
  return dir;
}

/** `generate resource …` in `dir`, and the test command it printed. */
export async function generate(t: ExecutionContext, dir: string, ...args: string[]): Promise<string> {
  const generated = await runMural(['generate', 'resource', ...args], dir);
  t.is(generated.code, 0, generated.err);
  const printed = /\nRun its test \(on an in-memory SQLite database, or the one MURAL_TEST_DATABASE_URL names\):\n {2}(.+)\n/.exec(generated.out)?.[1];
  if (!printed) throw new Error(`no test command in:\n${generated.out}`);
  return printed;
}

/**
 * The printed command, run as printed from the application's root, with `env`;
 * `npx` finds what the repository installed. Resolves to its output whether
 * it passes or fails, and its exit code.
 */
export async function runPrinted(dir: string, command: string, env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const [program, ...args] = command.split(' ') as [string, ...string[]];
  const [file, rest] = program === 'npx' ? [resolve(repo, 'node_modules/.bin', args[0]!), args.slice(1)] : [process.execPath, args];
  // an installed Mural is compiled JavaScript; here the repository's sources stand in for it, through tsx
  const NODE_OPTIONS = `--import tsx --import ${resolve(repo, 'test/support/mural-package-bridge.ts')}`;
  try {
    const { stdout, stderr } = await run(file, rest, { cwd: dir, env: { ...process.env, NODE_OPTIONS, NO_COLOR: '1', DATABASE_URL: '', ...env }, timeout: 120_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, output: (failed.stdout ?? '') + (failed.stderr ?? '') };
  }
}
