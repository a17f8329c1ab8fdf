/**
 * `import(specifier)` that bundlers leave alone. The CLI's tools (tsx,
 * prompts, chalk) live in the same CommonJS bundle as the runtime; imported
 * by a literal, an app that bundles its server with esbuild or webpack would
 * pull them, and all they depend on, into its own bundle.
 */
export function importAtRunTime<T>(specifier: string): Promise<T> {
  return import(/* webpackIgnore: true */ specifier) as Promise<T>;
}
