/**
 * The exports through which a module hands out a Sequelize instance it
 * constructs: `export const sequelize = new Sequelize(…)`, `export default`,
 * `export { db as sequelize }`, `module.exports = sequelize`,
 * `module.exports = { sequelize }`, `exports.sequelize = …`. `default` names a
 * default export or CommonJS `module.exports`. Reads source with comments
 * stripped; a factory function returning an instance exports none.
 */
const ID = '[A-Za-z_$][\\w$]*';
const IMPORTS_SEQUELIZE = /(?:from\s*|require\(\s*)['"]sequelize(?:-typescript)?['"]/;
const CONSTRUCTS = /new\s+Sequelize\s*\(/;

export function sequelizeExports(code: string): string[] {
  if (!IMPORTS_SEQUELIZE.test(code) || !CONSTRUCTS.test(code)) return [];
  const names = new Set<string>();
  if (/export\s+default\s+new\s+Sequelize\b|module\.exports\s*=\s*new\s+Sequelize\b/.test(code)) names.add('default');
  for (const match of code.matchAll(new RegExp(`\\b(?:module\\.)?exports\\.(${ID})\\s*=\\s*new\\s+Sequelize\\b`, 'g'))) names.add(match[1]!);
  for (const declaration of code.matchAll(new RegExp(`(export\\s+)?\\b(?:const|let|var)\\s+(${ID})\\s*(?::[^=;]+)?=`, 'g'))) {
    const initializer = code.slice(declaration.index + declaration[0].length, statementEnd(code, declaration.index + declaration[0].length));
    if (!CONSTRUCTS.test(initializer)) continue;
    const variable = declaration[2]!;
    if (declaration[1]) names.add(variable);
    for (const name of exportNamesOf(code, variable)) names.add(name);
  }
  return [...names];
}

/** Where the statement starting before `from` ends: a `;` outside brackets, or a new line starting at column 0. */
function statementEnd(code: string, from: number): number {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const char = code[i]!;
    if (char === '"' || char === "'" || char === '`') {
      const quote = char;
      for (i++; i < code.length && code[i] !== quote; i++) if (code[i] === '\\') i++;
    } else if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) depth--;
    else if (depth <= 0 && char === ';') return i;
    else if (depth <= 0 && char === '\n' && /[A-Za-z_$]/.test(code[i + 1] ?? '')) return i;
  }
  return code.length;
}

/** The names the variable `name` is exported under, by export lists, `export default` or CommonJS assignments. */
function exportNamesOf(code: string, name: string): string[] {
  const names: string[] = [];
  const variable = name.replace(/\$/g, '\\$');
  for (const list of code.matchAll(/export\s*\{([^}]*)\}(?!\s*from)/g)) {
    for (const entry of list[1]!.split(',')) {
      const [local, exported] = entry.trim().split(/\s+as\s+/);
      if (local === name) names.push(exported ?? local);
    }
  }
  if (new RegExp(`export\\s+default\\s+${variable}\\s*(;|$)`, 'm').test(code)) names.push('default');
  if (new RegExp(`module\\.exports\\s*=\\s*${variable}\\s*(;|$)`, 'm').test(code)) names.push('default');
  for (const object of code.matchAll(/module\.exports\s*=\s*\{([^}]*)\}/g)) {
    for (const entry of object[1]!.split(',')) {
      const [key, value] = entry.split(':').map((part) => part.trim());
      if ((value ?? key) === name && key) names.push(key);
    }
  }
  for (const match of code.matchAll(new RegExp(`\\b(?:module\\.)?exports\\.(${ID})\\s*=\\s*${variable}\\s*(;|$)`, 'gm'))) names.push(match[1]!);
  return names;
}
