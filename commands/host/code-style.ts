/**
 * How a generated file spells imports, exports and types, so one template
 * renders TypeScript, JavaScript ES modules or CommonJS.
 */
export interface CodeStyle {
  language: 'typescript' | 'javascript';
  /** The syntax generated files use; TypeScript is always written as ES modules. */
  moduleFormat: 'esm' | 'commonjs';
  /** The extension of generated files: `.ts`, `.js`, or `.mjs`/`.cjs` where package.json makes `.js` the other format. */
  extension: string;
  /**
   * One import line: a string is a default import, an array names exports
   * (`'db as sequelize'` renames). `import { A } from 'm';` or `const { A } = require('m');`
   */
  import(bindings: string | string[], from: string): string;
  /** `import type { A } from 'm';` and a newline in TypeScript; nothing in JavaScript. */
  importType(names: string[], from: string): string;
  /** `export ` before a declaration in ES modules; nothing in CommonJS, where `exports` lists them. */
  export: string;
  /** `module.exports = { A };` after a blank line in CommonJS; nothing in ES modules. */
  exports(names: string[]): string;
  /** The text (a type annotation) in TypeScript; nothing in JavaScript. */
  ts(text: string): string;
  /** `(expression as Type)` in TypeScript; the expression alone in JavaScript. */
  cast(expression: string, type: string): string;
}

export function codeStyle(language: 'typescript' | 'javascript', moduleFormat: 'esm' | 'commonjs', packageIsModule: boolean): CodeStyle {
  const format = language === 'typescript' ? 'esm' : moduleFormat;
  const commonjs = format === 'commonjs';
  const typescript = language === 'typescript';
  return {
    language,
    moduleFormat: format,
    extension: typescript ? '.ts' : commonjs === packageIsModule ? (commonjs ? '.cjs' : '.mjs') : '.js',
    import(bindings, from) {
      if (typeof bindings === 'string') return commonjs ? `const ${bindings} = require('${from}');` : `import ${bindings} from '${from}';`;
      const names = bindings.map((b) => (commonjs ? b.replace(' as ', ': ') : b));
      return commonjs ? `const { ${names.join(', ')} } = require('${from}');` : `import { ${names.join(', ')} } from '${from}';`;
    },
    importType: (names, from) => (typescript ? `import type { ${names.join(', ')} } from '${from}';\n` : ''),
    export: commonjs ? '' : 'export ',
    exports: (names) => (commonjs ? `\nmodule.exports = { ${names.join(', ')} };\n` : ''),
    ts: (text) => (typescript ? text : ''),
    cast: (expression, type) => (typescript ? `(${expression} as ${type})` : expression),
  };
}
