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
  /** Relative import path from one generated file to another. */
  importPath(from: keyof TemplatePaths, to: keyof TemplatePaths): string;
  paths: TemplatePaths;
}

export interface TemplatePaths {
  resource: string;
  model: string;
  controller: string;
  test: string;
  routes: string;
}

/** Returns the file's content. */
export type Template = (context: TemplateContext) => string;
