import { dirname, relative, resolve } from 'node:path';
import { typeFromClassName } from '../core/resource/naming.ts';
import { codeStyle } from './host/code-style.ts';
import type { CommandContext } from './host/command.ts';
import type { AppShape } from './generate/app-shape.ts';
import { parseModuleReference } from './host/module-reference.ts';
import { isModulePackage, testRunnerOf } from './host/package-type.ts';
import { DEFAULT_GENERATOR_PATHS, DEFAULT_GENERATOR_STYLE, type GeneratorSettings } from './host/project-config.ts';
import type { TemplateContext, TemplatePaths } from './host/template.ts';

export interface GenerateRequest {
  name: string;
  attributes: Array<{ name: string; type: string }>;
  actions: string[];
}

/** The generator's settings: the config's, over the defaults; the routes file takes the project's extension. */
function settings(context: CommandContext, extension: string): GeneratorSettings {
  const configured = context.config.generator ?? {};
  const routes = configured.routes ?? DEFAULT_GENERATOR_PATHS.routes.replace(/\.ts$/, extension);
  return { ...DEFAULT_GENERATOR_PATHS, ...DEFAULT_GENERATOR_STYLE, ...configured, routes };
}

/** `./employee.ts` → `./employee.js` when the project's TypeScript imports end in `.js`. */
function importSpecifier(fromFile: string, toFile: string, jsExtensions: boolean): string {
  const path = relative(dirname(fromFile), toFile).replace(/\\/g, '/');
  const specifier = path.startsWith('.') ? path : `./${path}`;
  return jsExtensions ? specifier.replace(/\.([mc]?)ts$/, '.$1js') : specifier;
}

/**
 * Everything the templates are given. `shape` is what the Resource takes from
 * the application (see appShape); without it, only what the config says.
 */
export function templateContext(context: CommandContext, request: GenerateRequest, shape?: AppShape): TemplateContext {
  const configured = context.config.generator ?? {};
  const packageIsModule = isModulePackage(context.root);
  const language = configured.language ?? DEFAULT_GENERATOR_STYLE.language;
  const code = codeStyle(language, configured.moduleFormat ?? (packageIsModule ? 'esm' : 'commonjs'), packageIsModule);
  const options = settings(context, code.extension);
  const testRunner = configured.testRunner ?? testRunnerOf(context.root);
  const testCode = testRunner === 'vitest' && code.moduleFormat === 'commonjs' ? codeStyle(language, 'esm', packageIsModule) : code;
  const type = typeFromClassName(request.name);
  const fileStem = request.name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const at = (dir: string, file: string) => resolve(context.root, dir, file);
  const database = options.sequelize ? parseModuleReference(options.sequelize, 'generator.sequelize') : undefined;
  const base = shape ? shape.baseResource : options.baseResource ? parseModuleReference(options.baseResource, 'generator.baseResource') : undefined;
  const endpointNamespace = shape ? shape.endpointNamespace : options.endpointNamespace;
  const files: TemplatePaths = {
    resource: at(options.resources, `${fileStem}-resource${code.extension}`),
    model: at(options.models, `${fileStem}${code.extension}`),
    controller: at(options.controllers, `${fileStem}-controller${code.extension}`),
    test: at(options.tests, `${fileStem}-resource.test${testCode.extension}`),
    routes: resolve(context.root, options.routes),
    database: database ? resolve(context.root, database.path) : at(options.models, `db${code.extension}`),
    ...(base ? { baseResource: resolve(context.root, base.path) } : {}),
  };
  const jsExtensions = language === 'typescript' && options.importExtension === '.js';
  return {
    className: request.name,
    resourceClass: `${request.name}Resource`,
    type,
    fileStem,
    tableName: type,
    attributes: request.attributes,
    actions: request.actions,
    paths: files,
    code,
    testCode,
    testRunner,
    databaseExport: database?.exportName ?? 'sequelize',
    ...(base ? { baseResource: { exportName: base.exportName } } : {}),
    ...(endpointNamespace !== undefined ? { endpointNamespace } : {}),
    importPath(from, to) {
      const target = files[to];
      if (!target) throw new Error(`No ${to} path to import from ${from}`);
      return importSpecifier(files[from]!, target, jsExtensions);
    },
  };
}
