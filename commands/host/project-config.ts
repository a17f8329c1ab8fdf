import type { TestRunner } from './package-type.ts';
import type { OpenApiInfo, Resource } from '../../core/index.ts';
import type { MuralPlugin } from './plugin.ts';

type ResourceClass = typeof Resource;

/** Where `mural generate` writes, relative to the config file. */
export interface GeneratorPaths {
  resources: string;
  models: string;
  controllers: string;
  tests: string;
  /** The file `generate` registers new routes in, between its marker comments. */
  routes: string;
}

/** How generated code is written, so that it fits the application; `mural init` sets these. */
export interface GeneratorStyle {
  /** Default `typescript`. */
  language: 'typescript' | 'javascript';
  /**
   * JavaScript only: `esm` (import/export) or `commonjs` (require/module.exports).
   * Default: what the project's package.json `type` makes `.js` files.
   */
  moduleFormat?: 'esm' | 'commonjs';
  /**
   * TypeScript only: how relative imports end. `.ts` (the default; tsx, or
   * `allowImportingTsExtensions`) or `.js` (what `tsc` with `module: nodenext` expects).
   */
  importExtension: '.ts' | '.js';
  /**
   * What generated tests are written for: `ava`, `vitest`, or `node`
   * (`node:test`, run by `node --test`). Default: the runner the project's
   * package.json lists (Vitest, else ava), else `node`.
   */
  testRunner?: TestRunner;
  /**
   * `path#export` of the application's Sequelize instance (`#default` for a
   * default export or `module.exports`), which generated models use. Absent,
   * `generate` writes a `db.ts` of its own next to the models.
   */
  sequelize?: string;
  /**
   * `path#export` of the abstract Resource generated Resources extend (an
   * ApplicationResource holding the adapter and namespace). Absent, they extend
   * `Resource` and set the Sequelize adapter themselves.
   */
  baseResource?: string;
  /**
   * The `endpointNamespace` generated Resources set when their base does not
   * hand one down (`/api/v1`). Absent, the one the application's Resources
   * set in their sources, if any.
   */
  endpointNamespace?: string;
}

/**
 * The `generator` section of `mural.config`: where `mural generate` writes (`GeneratorPaths`) and
 * in which language and style (`GeneratorStyle`).
 */
export type GeneratorSettings = GeneratorPaths & GeneratorStyle;

/** What `mural.config.{ts,js,mjs}` exports by default. */
export interface ProjectConfig {
  /** The application's Resources, or a function loading them (and connecting) on demand. */
  resources: readonly ResourceClass[] | (() => readonly ResourceClass[] | Promise<readonly ResourceClass[]>);
  /** Plugins to load; the built-in ones when absent. */
  plugins?: MuralPlugin[];
  /** The committed schema `schema export` writes and `schema check` compares with. Default `schema.json`. */
  schemaPath?: string;
  /**
   * `mural openapi`: the document's `info`, the committed file `--check` compares with (default `openapi.json`),
   * and whether to describe the atomic operations endpoint (as `muralRouter({ operations: true })` serves it).
   */
  openapi?: { path?: string; info?: OpenApiInfo; operations?: boolean };
  generator?: Partial<GeneratorSettings>;
  /**
   * Check the Resources as `muralRouter` does (`checkResources`) when a
   * command loads them: one error listing every problem. Default: true.
   */
  checkResources?: boolean;
  /** Called when a command is done, e.g. to close database connections. */
  close?: () => void | Promise<void>;
}

/**
 * Types a `mural.config` file's default export and returns it unchanged: `export default
 * defineConfig({ resources: () => importResources(import.meta.url, 'src/resources') })`.
 */
export function defineConfig(config: ProjectConfig): ProjectConfig {
  return config;
}

export const DEFAULT_GENERATOR_PATHS: GeneratorPaths = {
  resources: 'app/resources',
  models: 'app/models',
  controllers: 'app/controllers',
  tests: 'test/resources',
  routes: 'app/routes.ts',
};

export const DEFAULT_GENERATOR_STYLE: GeneratorStyle = { language: 'typescript', importExtension: '.ts' };
