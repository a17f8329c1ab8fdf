import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runMural } from '../support/cli.ts';

const run = promisify(execFile);
const repo = process.cwd();

/** A project directory with a config whose Resources and plugins are given as source. */
function project(config: string, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'mural-host-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'mural.config.ts'), config);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const core = resolve(repo, 'core/index.ts');
const cli = resolve(repo, 'commands/index.ts');

test('a third-party plugin loaded from a file adds a command that runs', async (t) => {
  const dir = project(
    `import { defineConfig } from '${cli}';
import { Resource } from '${core}';
import { greeter } from './greeter-plugin.ts';
class ThingResource extends Resource { static { this.attribute('name', 'string'); } }
// no model: without the check a command makes on loading the Resources, the query finds out when it runs
export default defineConfig({ resources: [ThingResource], plugins: [greeter], checkResources: false });
`,
    {
      'greeter-plugin.ts': `import type { MuralPlugin } from '${cli}';
export const greeter: MuralPlugin = {
  name: 'greeter',
  setup(host) {
    host.command({
      name: 'greet',
      description: 'Greets every Resource',
      arguments: ['<greeting>'],
      options: [{ flags: '--loud', description: 'shout' }],
      async run(context, [greeting], options) {
        for (const r of await context.resources()) context.io.out(\`\${options.loud ? greeting!.toUpperCase() : greeting} \${r.type}\`);
        return 3;
      },
    });
  },
};
`,
    },
  );
  const result = await runMural(['greet', 'hello', '--loud'], dir);
  t.is(result.out, 'HELLO things\n');
  t.is(result.code, 3);
  const builtIn = await runMural(['query', 'things'], dir);
  t.is(builtIn.code, 1, 'a config naming its plugins still has the core commands');
  t.regex(builtIn.err, /ThingResource has no model/);
});

test('a missing config, an unknown command and an unknown option exit 2', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'mural-empty-'));
  const missing = await runMural(['guards'], empty);
  t.is(missing.code, 2);
  t.regex(missing.err, /No mural\.config\.\{ts,mts,cts,js,mjs,cjs\} in .*; pass --config PATH/);
  const dir = project(`import { defineConfig } from '${cli}';\nexport default defineConfig({ resources: [] });\n`);
  t.is((await runMural(['frobnicate'], dir)).code, 2);
  const option = await runMural(['guards', '--bogus'], dir);
  t.is(option.code, 2);
  t.regex(option.err, /unknown option '--bogus'/);
  t.is((await runMural(['guards', '--config', 'elsewhere.ts'], dir)).code, 2);
});

test('a config whose Resources fail to load is a clear exit 2', async (t) => {
  const dir = project(`import { defineConfig } from '${cli}';
export default defineConfig({ resources: async () => { throw new Error('database is down'); } });
`);
  const result = await runMural(['guards'], dir);
  t.is(result.code, 2);
  t.is(result.err, 'Could not load the Resources: database is down\n');
  const broken = project(`import { nothing } from './missing.ts';\nexport default nothing;\n`);
  const syntax = await runMural(['guards'], broken);
  t.is(syntax.code, 2);
  t.regex(syntax.err, /Could not load .*mural\.config\.ts/);
});

test('every command has --help with examples', async (t) => {
  for (const command of [['init'], ['query'], ['schema', 'export'], ['schema', 'check'], ['guards'], ['generate', 'resource'], ['types']]) {
    const help = await runMural([...command, '--help']);
    t.is(help.code, 0, command.join(' '));
    t.regex(help.out, /Examples:\n {2}\$ mural /, command.join(' '));
  }
});

test('the mural executable runs TypeScript configs without a build step; no colour when piped', async (t) => {
  const dir = project(`import { defineConfig } from '${cli}';
import { Resource } from '${core}';
class PlainResource extends Resource { static { this.attribute('secret', 'string', { readable: 'isAdmin' }); } isAdmin() { return false; } }
// no model: guards are listed from the declarations alone
export default defineConfig({ resources: [PlainResource], checkResources: false });
`);
  const { stdout } = await run(process.execPath, [resolve(repo, 'bin/mural.js'), 'guards'], { cwd: dir, env: { ...process.env, FORCE_COLOR: undefined } });
  t.regex(stdout, /PlainResource\s+attribute\s+secret\s+readable\s+isAdmin/);
  t.notRegex(stdout, /\u001b\[/);
  const failure = await run(process.execPath, [resolve(repo, 'bin/mural.js'), 'nonsense'], { cwd: dir }).catch((e: { code: number; stderr: string }) => e);
  t.is((failure as { code: number }).code, 2);
});

test('a plugin can replace a generator template', async (t) => {
  const dir = project(
    `import { defineConfig, expressPlugin, sequelizePlugin } from '${cli}';
export default defineConfig({
  resources: [],
  plugins: [sequelizePlugin, expressPlugin, { name: 'house-style', setup(host) { host.template('resource', (c) => \`// house style\\nexport const \${c.resourceClass} = '\${c.type}';\\n\`); } }],
});
`,
  );
  const result = await runMural(['generate', 'resource', 'Widget', 'name:string'], dir);
  t.is(result.code, 0, result.err);
  t.is(readFileSync(join(dir, 'app/resources/widget-resource.ts'), 'utf8'), "// house style\nexport const WidgetResource = 'widgets';\n");
  t.regex(readFileSync(join(dir, 'app/models/widget.ts'), 'utf8'), /export class Widget extends Model/, 'the other templates are untouched');
});

test('NO_COLOR turns colour off even in a terminal', async (t) => {
  const previous = process.env.NO_COLOR;
  process.env.NO_COLOR = '1';
  try {
    const { main } = await import('../../bin/main.ts');
    let err = '';
    const code = await main(['guards'], { cwd: mkdtempSync(join(tmpdir(), 'mural-nocolor-')), io: { out: () => undefined, err: (s) => void (err += s), interactive: true } });
    t.is(code, 2);
    t.notRegex(err, /\u001b\[/);
    t.regex(err, /No mural\.config\./);
  } finally {
    if (previous === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = previous;
  }
});

test('plugins register adapters without loading them: mural --help never loads Sequelize; registeredAdapter loads it on first use', async (t) => {
  const script = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const sequelizeModules = () => Object.keys(require.cache).filter((path) => /[\\\\/]node_modules[\\\\/]sequelize[\\\\/]/.test(path)).length;
const { main } = await import(${JSON.stringify(resolve(repo, 'bin/main.ts'))});
const code = await main(['--help'], { io: { out() {}, err() {}, interactive: false }, cwd: ${JSON.stringify(tmpdir())} });
const afterHelp = sequelizeModules();
const { registeredAdapter } = await import(${JSON.stringify(cli)});
const adapter = await registeredAdapter('sequelize');
console.log(JSON.stringify({ code, afterHelp, adapter: adapter?.name, afterLoad: sequelizeModules(), none: (await registeredAdapter('nope')) ?? null }));
`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repo });
  const result = JSON.parse(stdout) as { code: number; afterHelp: number; adapter: string; afterLoad: number; none: null };
  t.is(result.code, 0);
  t.is(result.afterHelp, 0, 'no module of Sequelize loaded for --help');
  t.is(result.adapter, 'SequelizeAdapter');
  t.true(result.afterLoad > 0);
  t.is(result.none, null);
});
