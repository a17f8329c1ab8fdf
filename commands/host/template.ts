import type { CodeStyle } from './code-style.ts';
import type { TestRunner } from './package-type.ts';

/** Everything a generator template is given about the Resource being generated. */
export interface TemplateContext {
  /** `Employee` */
  className: string;
  /** `EmployeeResource` */
  resourceClass: string;
  /** `employees` */
  type: string;
  /** `employee` (kebab-case file stem) */
  fileStem: string;
  /** `employees` */
  tableName: string;
  attributes: Array<{ name: string; type: string }>;
  actions: string[];
  /** Relative import path from one generated file to another, ending as the project's imports do. */
  importPath(from: keyof TemplatePaths, to: keyof TemplatePaths): string;
  paths: TemplatePaths;
  /** How the project writes code: TypeScript or JavaScript, ES modules or CommonJS. */
  code: CodeStyle;
  /**
   * How the generated test is written: as `code`, except that Vitest cannot be
   * `require`d, so in a CommonJS project its tests are ES modules (`.mjs`).
   */
  testCode: CodeStyle;
  /** What the generated test is written for. */
  testRunner: TestRunner;
  /** The export of `paths.database` holding the Sequelize instance: a name, or `default`. */
  databaseExport: string;
  /** The application's abstract Resource at `paths.baseResource`, when generated Resources extend one. */
  baseResource?: { exportName: string };
  /** The namespace the generated Resource sets, when it inherits none from its base (`/api/v1`). */
  endpointNamespace?: string;
}

/**
 * The files `mural generate resource` writes, as paths from the project's root, which a template
 * uses to write its imports.
 */
export interface TemplatePaths {
  resource: string;
  model: string;
  controller: string;
  test: string;
  routes: string;
  /** The module exporting the Sequelize instance: the application's, or the `db` file `generate` writes once. */
  database: string;
  baseResource?: string;
}

/** Returns the file's content. */
export type Template = (context: TemplateContext) => string;
