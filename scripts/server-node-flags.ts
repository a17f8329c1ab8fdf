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
