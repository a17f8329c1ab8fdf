import type { ModuleReference } from '../host/module-reference.ts';
import { formatModuleReference } from '../host/module-reference.ts';
import type { GeneratorSettings } from '../host/project-config.ts';

/** Everything `mural init` decided, which the config file spells out. */
export interface ConfigPlan {
  language: 'typescript' | 'javascript';
  /** JavaScript only: the syntax of the config (and of what `generate` writes). */
  moduleFormat: 'esm' | 'commonjs';
  /** Whether package.json makes `.js` files ES modules. */
  packageIsModule: boolean;
  /** The module exporting the Sequelize instance, relative to the project root. */
  sequelize: ModuleReference;
  /** Resource files and directories, relative to the project root. */
  resources: string[];
  generator: GeneratorSettings;
}

/** A string literal for a path or name written into the config. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function isCommonJsFile(path: string, packageIsModule: boolean): boolean {
  return /\.c[jt]s$/.test(path) || (/\.js$/.test(path) && !packageIsModule);
}

/** `close()`: the connection of the module's instance, imported the way the config's format can. */
function closeFunction(plan: ConfigPlan, configIsCommonJs: boolean): string {
  const { path, exportName } = plan.sequelize;
  const typescriptSource = /\.[mc]?ts$/.test(path);
  const jsExtension = typescriptSource && plan.generator.importExtension === '.js';
  const target = jsExtension ? path.replace(/\.([mc]?)ts$/, '.$1js') : path;
  const specifier = quote(target.startsWith('../') ? target : `./${target}`);
  const local = exportName === 'default' ? 'sequelize' : exportName;
  const pattern = exportName === 'default' ? '{ default: sequelize }' : `{ ${exportName} }`;
  const moduleIsCommonJs = !typescriptSource && isCommonJsFile(path, plan.packageIsModule);
  let load: string;
  if (configIsCommonJs && moduleIsCommonJs) load = exportName === 'default' ? `const sequelize = require(${specifier});` : `const ${pattern} = require(${specifier});`;
  else if (moduleIsCommonJs) load = exportName === 'default' ? `const { default: sequelize } = await import(${specifier});` : `const ${pattern} = (await import(${specifier})).default;`;
  else load = `const ${pattern} = await import(${specifier});`;
  return `  async close() {\n    ${load}\n    await ${local}.close();\n  },`;
}

function generatorSection(generator: GeneratorSettings): string {
  const keys: Array<keyof GeneratorSettings> = ['language', 'moduleFormat', 'importExtension', 'sequelize', 'baseResource', 'endpointNamespace', 'resources', 'models', 'controllers', 'tests', 'routes'];
  const lines = keys
    .filter((key) => generator[key] !== undefined && (key !== 'importExtension' || generator.language === 'typescript'))
    .map((key) => `    ${key}: ${quote(String(generator[key]))},`);
  return `  generator: {\n${lines.join('\n')}\n  },`;
}

/** `mural.config.ts`; in JavaScript `.js`, or `.mjs`/`.cjs` where package.json makes `.js` the other format. */
function configFileName(plan: ConfigPlan): string {
  if (plan.language === 'typescript') return 'mural.config.ts';
  if ((plan.moduleFormat === 'esm') === plan.packageIsModule) return 'mural.config.js';
  return plan.moduleFormat === 'esm' ? 'mural.config.mjs' : 'mural.config.cjs';
}

/** The config file's name and text: TypeScript, or JavaScript in the project's module format. */
export function renderConfig(plan: ConfigPlan): { fileName: string; text: string } {
  const typescript = plan.language === 'typescript';
  const commonJs = !typescript && plan.moduleFormat === 'commonjs';
  // tsx runs a TypeScript config in the package's format; JavaScript is what it is written as
  const esmRuntime = typescript ? plan.packageIsModule : !commonJs;
  const base = esmRuntime ? 'import.meta.url' : '__filename';
  const header = commonJs
    ? `const { defineConfig, importResources } = require('mural-cli');`
    : `import { defineConfig, importResources } from 'mural-cli';`;
  const body = [
    `  resources: () => importResources(${[base, ...plan.resources.map(quote)].join(', ')}),`,
    closeFunction(plan, commonJs),
    `  schemaPath: 'schema.json',`,
    generatorSection({ ...plan.generator, sequelize: formatModuleReference(plan.sequelize) }),
  ].join('\n');
  const text = `${header}

/**
 * Written by \`mural init\`. Commands import the Resources on demand from these
 * files and directories (Resources added to a directory are picked up), and
 * close the connection when done; nothing here creates, syncs or seeds tables.
 */
${commonJs ? 'module.exports =' : 'export default'} defineConfig({
${body}
});
`;
  return { fileName: configFileName(plan), text };
}
