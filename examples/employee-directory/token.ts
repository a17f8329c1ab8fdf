import { tokenClaims } from './auth/token-arguments.ts';
import { signToken } from './auth/tokens.ts';

/*
 * `npm run token -- --role admin|guest [--company N] [--user N]`: one line
 * on stdout, a bearer token for a seeded user, signed with
 * MURAL_TOKEN_SECRET (or the development key) as the server checks it:
 *
 *   curl localhost:3000/api/v1/employees -H "Authorization: Bearer $(npm run --silent token -- --role admin)"
 */
try {
  console.log(await signToken(tokenClaims(process.argv.slice(2))));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
