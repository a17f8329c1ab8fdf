import { CommandError } from './command.ts';

/** A module and one of its exports, written `path#export` (`#default`: the default export or `module.exports`). */
export interface ModuleReference {
  path: string;
  exportName: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `src/db.ts#sequelize`; without `#`, the default export. */
export function parseModuleReference(text: string, what: string): ModuleReference {
  const hash = text.lastIndexOf('#');
  const path = hash === -1 ? text : text.slice(0, hash);
  const exportName = hash === -1 ? 'default' : text.slice(hash + 1);
  if (!path || /[\n\r]/.test(path)) throw new CommandError(`${what} "${text}" has no module path; write path#export`, 2);
  if (!IDENTIFIER.test(exportName)) throw new CommandError(`${what} "${text}": "${exportName}" is not an export name; write path#export`, 2);
  return { path, exportName };
}

export function formatModuleReference(reference: ModuleReference): string {
  return `${reference.path}#${reference.exportName}`;
}
