// Imported first (`--import`) by processes that run a throwaway application (see mural-app.ts): its
// node_modules/mural and node_modules/mural-cli hand `require` callers these modules, the very ones
// `import` callers and the CLI get. Keyed by the specifier an application requires.
import * as cli from '../../commands/index.ts';
import * as core from '../../core/index.ts';
import * as express from '../../plugins/express/index.ts';
import * as sequelize from '../../plugins/sequelize/index.ts';
import * as typescript from '../../plugins/typescript/index.ts';

(globalThis as Record<symbol, unknown>)[Symbol.for('mural test package')] = {
  mural: core, 'mural/sequelize': sequelize, 'mural/express': express, 'mural/typescript': typescript, 'mural-cli': cli,
};
