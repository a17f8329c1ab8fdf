/**
 * The Node flags a Mural server runs with: `npm start` passes them to the
 * example server, and `npm run bench` runs every contender under them, as
 * the example is run. Not allowed in NODE_OPTIONS, so they are on the
 * command line.
 *
 * `--no-allocation-site-pretenuring`: under concurrent load V8 decides,
 * from a few hundred samples, that objects of request-scoped allocation
 * sites (a driver's row objects, Express's router closures, a response's
 * pieces) outlive a scavenge, and allocates all later ones straight into
 * the old generation. Everything they point to is then promoted too, and
 * collected only by full collections. Off, a server at 16 connections
 * spent 58% less time in garbage collection and answered 2–15% more
 * requests a second (docs/production.md, "Node's flags").
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/** Node's arguments for running `script` as `npm start` runs the example server: the flags, then `--import tsx`. */
export function serverArguments(script: string): string[] {
  return [...SERVER_NODE_FLAGS, '--import', 'tsx', script];
}

/**
 * The environment of the example server run as in production by the tests
 * and the bench: NODE_ENV=production, and the token key production
 * requires (a test's own, never a real one).
 */
export const PRODUCTION_SERVER_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'production',
  MURAL_TOKEN_SECRET: 'the test suites own token key, not a secret of anyone',
};
