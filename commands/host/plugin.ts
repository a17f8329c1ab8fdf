import type { AdapterClass, TypeDefinition } from '../../core/index.ts';
import type { CommandDefinition } from './command.ts';
import type { Template } from './template.ts';

/** What a plugin may add to the CLI and the runtime. */
export interface PluginHost {
  command(definition: CommandDefinition): void;
  /** Adds or replaces a generator template by name (`resource`, `model`, `controller`, `route`, `test`). */
  template(name: string, template: Template): void;
  /** Registers a type in `Types`. */
  type(name: string, definition: TypeDefinition): void;
  /**
   * Makes an adapter available by name (see `registeredAdapter`): its class,
   * or `{ load }` to import it only when first asked for, so that commands
   * which never touch a database (`mural --help`) do not load its driver.
   */
  adapter(name: string, adapter: AdapterClass | AdapterLoader): void;
}

/** An adapter registered without being loaded: `load` imports it on first use. */
export interface AdapterLoader {
  load(): Promise<AdapterClass>;
}

/** A plugin is a plain object; the built-in ones use the same interface. */
export interface MuralPlugin {
  name: string;
  setup(host: PluginHost): void | Promise<void>;
}
