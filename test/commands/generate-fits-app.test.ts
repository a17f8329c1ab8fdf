import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMural } from '../support/cli.ts';
import { createApp, muralIn, removeApp } from '../support/mural-app.ts';
import { esmShop, typescriptShop } from '../support/shop-apps.ts';

/**
 * A generated Resource is served beside the application's others: it extends
 * the application's base Resource (which hands down the adapter and the
 * namespace), and without one it sets the namespace the others set. A config
 * written by hand, with no `generator` section, gets the same.
 */
function shop(t: ExecutionContext, name: string, files: Record<string, string>, config: string): string {
  const dir = createApp(`fits-${name}`, { ...files, [config.startsWith('import') ? 'mural.config.ts' : 'mural.config.js']: config });
  t.teardown(() => removeApp(dir));
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');

/** The endpoints `schema export` finds once the generated Resource is loaded with the others. */
async function endpoints(t: ExecutionContext, dir: string): Promise<string[]> {
  const exported = await muralIn(dir, 'schema', 'export');
  t.is(exported.code, 0, exported.err);
  return Object.keys(JSON.parse(read(dir, 'schema.json')).endpoints as object).sort();
}

test('a config that names no base Resource: the one the sources declare is found, and said', async (t) => {
  const dir = shop(t, 'base', typescriptShop, `import { defineConfig, importResources } from 'mural-cli';

export default defineConfig({ resources: () => importResources(import.meta.url, 'src/resources'), generator: { resources: 'src/resources', models: 'src/models', sequelize: 'src/db.ts#sequelize' } });
`);
  const generated = await runMural(['generate', 'resource', 'Widget', 'label:string'], dir);
  t.is(generated.code, 0, generated.err);
  t.regex(generated.out, /\nnote WidgetResource extends ApplicationResource of src\/resources\/application-resource\.ts, the application's base Resource; the config's generator\.baseResource can name another\n/);
  const resource = read(dir, 'src/resources/widget-resource.ts');
  t.regex(resource, /^import \{ ApplicationResource \} from '\.\/application-resource\.ts';\n/);
  t.regex(resource, /export class WidgetResource extends ApplicationResource \{\n {2}static \{\n {4}this\.model = Widget;/);
  t.notRegex(resource, /endpointNamespace|adapter/, 'inherited');
  t.deepEqual(await endpoints(t, dir), ['/api/categories', '/api/products', '/api/widgets']);
});

const namespaced = Object.fromEntries(Object.entries(esmShop).map(([path, code]) => [path, code.replace('this.adapter = SequelizeAdapter;', "this.adapter = SequelizeAdapter;\n    this.endpointNamespace = '/api/v1';")]));

test('without a base Resource, the namespace the other Resources set; init records it', async (t) => {
  const dir = shop(t, 'namespace', namespaced, `export default { resources: async () => (await import('mural-cli')).importResources(import.meta.url, 'src/api'), generator: { language: 'javascript', resources: 'src/api', models: 'src/models', sequelize: 'src/db.js#default' } };\n`);
  const generated = await runMural(['generate', 'resource', 'Widget', 'label:string'], dir);
  t.is(generated.code, 0, generated.err);
  t.notRegex(generated.out, /note/);
  t.regex(read(dir, 'src/api/widget-resource.js'), /\n {4}this\.adapter = SequelizeAdapter;\n {4}this\.endpointNamespace = '\/api\/v1';\n/);
  t.deepEqual(await endpoints(t, dir), ['/api/v1/categories', '/api/v1/products', '/api/v1/widgets']);
  const init = await runMural(['init', '--force'], dir);
  t.is(init.code, 0, init.err);
  t.regex(read(dir, 'mural.config.js'), /\n {4}sequelize: 'src\/db\.js#default',\n {4}endpointNamespace: '\/api\/v1',\n/);
});

test('the config\'s generator.endpointNamespace is the namespace to set', async (t) => {
  const dir = shop(t, 'configured', namespaced, `export default { resources: [], generator: { language: 'javascript', resources: 'src/api', models: 'src/models', sequelize: 'src/db.js#default', endpointNamespace: '/v2' } };\n`);
  t.is((await runMural(['generate', 'resource', 'Widget', 'label:string'], dir)).code, 0);
  t.regex(read(dir, 'src/api/widget-resource.js'), /\n {4}this\.endpointNamespace = '\/v2';\n/);
});
