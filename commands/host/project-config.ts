import type { Resource } from '../../core/index.ts';
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

/** What `mural.config.{ts,js,mjs}` exports by default. */
export interface ProjectConfig {
  /** The application's Resources, or a function loading them (and connecting) on demand. */
  resources: readonly ResourceClass[] | (() => readonly ResourceClass[] | Promise<readonly ResourceClass[]>);
  /** Plugins to load; the built-in ones when absent. */
  plugins?: MuralPlugin[];
  /** The committed schema `schema export` writes and `schema check` compares with. Default `schema.json`. */
  schemaPath?: string;
  generator?: Partial<GeneratorPaths>;
  /** Called when a command is done, e.g. to close database connections. */
  close?: () => void | Promise<void>;
}

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
