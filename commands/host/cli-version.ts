// The manifest of mural-cli, the package that ships this code. The build
// bundles it in (esbuild inlines JSON), so the compiled CLI reads no file for
// it at run time; from the sources, Node or tsx imports it. The one place
// that knows where it lies.
import manifest from '../../packages/mural-cli/package.json' with { type: 'json' };

/** The version of the package the CLI ships in, for `mural --version`. */
export const CLI_VERSION: string = manifest.version;
