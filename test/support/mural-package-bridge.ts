// Imported first (`--import`) by processes that run a throwaway application (see mural-app.ts): its
// node_modules/mural hands `require` callers these modules, the very ones `import` callers and the CLI get.
import * as cli from '../../commands/index.ts';
import * as core from '../../core/index.ts';
import * as express from '../../plugins/express/index.ts';
import * as sequelize from '../../plugins/sequelize/index.ts';

(globalThis as Record<symbol, unknown>)[Symbol.for('mural test package')] = { '.': core, './cli': cli, './sequelize': sequelize, './express': express };
