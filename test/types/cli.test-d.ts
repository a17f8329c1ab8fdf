/**
 * The types users of `mural-cli` get: a `mural.config.ts` as the README
 * writes it, and a plugin adding a command, a template, a type and an
 * adapter, compile; each mistake below stays a compile error. Only compiled,
 * never run (see core.test-d.ts).
 */
import { expectTypeOf } from 'expect-type';
import { Resource, type TypeDefinition } from 'mural';
import {
  CommandError, coreCommands, defineConfig, expressPlugin, runCli, sequelizePlugin, typescriptPlugin,
  type CommandContext, type CommandDefinition, type MuralPlugin, type PluginHost, type ProjectConfig, type TemplateContext,
} from 'mural-cli';
import { SequelizeAdapter } from 'mural/sequelize';

class EmployeeResource extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.attribute('first_name', 'string');
  }
}
class PositionResource extends Resource {}

const money: TypeDefinition = {
  params: Number, read: String, write: Number, kind: 'scalar', canonical_name: 'money', description: 'An amount of money.',
};

// A plugin (README: host.command, host.template, host.type, host.adapter)
// the built-in plugins, listed beside one's own when a config names its plugins
expectTypeOf(expressPlugin).toEqualTypeOf<MuralPlugin>();
expectTypeOf(sequelizePlugin).toEqualTypeOf<MuralPlugin>();
expectTypeOf(typescriptPlugin).toEqualTypeOf<MuralPlugin>();

const myPlugin: MuralPlugin = {
  name: 'audit',
  setup(host) {
    expectTypeOf(host).toEqualTypeOf<PluginHost>();
    host.command({
      name: 'audit',
      description: 'Lists every Resource',
      arguments: ['[names...]'],
      options: [{ flags: '--format <format>', description: 'table or json', defaultValue: 'table' }],
      examples: ['mural audit'],
      async run(context, args, options) {
        expectTypeOf(context).toEqualTypeOf<CommandContext>();
        const resources = await context.resources();
        context.io.out(`${resources.length} Resources, ${args.length} names, format ${String(options.format)}`);
        if (resources.length === 0) throw new CommandError('no Resources', 1);
        return 0;
      },
    });
    host.template('test', (context: TemplateContext) => `// ${context.resourceClass} at ${context.importPath('test', 'resource')}`);
    host.type('money', money);
    host.adapter('sequelize', SequelizeAdapter);
  },
};

// mural.config.ts (README)
const config = defineConfig({
  resources: [EmployeeResource, PositionResource],
  schemaPath: 'schema.json',
  openapi: { path: 'openapi.json', info: { title: 'Directory', version: '1.0.0' } },
  plugins: [sequelizePlugin, expressPlugin, typescriptPlugin, myPlugin],
  generator: { resources: 'app/resources', models: 'app/models', controllers: 'app/controllers', tests: 'test/resources', routes: 'app/routes.ts' },
  close: () => undefined,
});
expectTypeOf(config).toEqualTypeOf<ProjectConfig>();
// or an async function that connects first
defineConfig({ resources: async () => [EmployeeResource], generator: { models: 'src/models' } });
expectTypeOf(coreCommands).toEqualTypeOf<CommandDefinition[]>();
expectTypeOf(runCli(['schema', 'export'], { defaultPlugins: [sequelizePlugin], coreCommands, coreTemplates: {} })).toEqualTypeOf<Promise<number>>();

// Mistakes that must not compile

// @ts-expect-error a misspelt setting
defineConfig({ resource: [EmployeeResource] });
// @ts-expect-error resources are Resource classes
defineConfig({ resources: ['EmployeeResource'] });
// @ts-expect-error generator paths are resources, models, controllers, tests and routes
defineConfig({ resources: [], generator: { model: 'app/models' } });
// @ts-expect-error the OpenAPI settings are a path and an info
defineConfig({ resources: [], openapi: { out: 'openapi.json' } });
// @ts-expect-error a plugin has a name
defineConfig({ resources: [], plugins: [{ setup() {} }] });
// @ts-expect-error a command resolves to its exit code
const wrongCommand: CommandDefinition = { name: 'x', description: 'x', run: async () => 'done' };
// @ts-expect-error a template returns the file's content
const wrongPlugin: MuralPlugin = { name: 'x', setup: (host) => host.template('test', () => 42) };
// @ts-expect-error a type definition has every coercion
const wrongType: TypeDefinition = { params: Number, read: String, kind: 'scalar', canonical_name: 'x', description: 'x' };

export { wrongCommand, wrongPlugin, wrongType };
