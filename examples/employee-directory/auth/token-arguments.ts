import { parseArgs } from 'node:util';
import type { TokenClaims } from './tokens.ts';

export const TOKEN_USAGE = 'usage: npm run token -- --role admin|guest [--company N] [--user N]';

/**
 * `npm run token`'s arguments as the claims of the token it prints: the
 * role, and a seeded user (employee 1 as the admin, employee 2 as the
 * guest, unless `--user` names another). Throws a message for anything else.
 */
export function tokenClaims(argv: readonly string[]): TokenClaims {
  const { values } = parseArgs({ args: [...argv], options: { role: { type: 'string' }, company: { type: 'string' }, user: { type: 'string' } }, strict: true });
  const role = values.role;
  if (role !== 'admin' && role !== 'guest') throw new Error(`--role must be admin or guest\n${TOKEN_USAGE}`);
  const number = (value: string | undefined, option: string) => {
    if (value === undefined) return undefined;
    if (!/^[1-9][0-9]{0,8}$/.test(value)) throw new Error(`${option} must be a whole number from 1\n${TOKEN_USAGE}`);
    return Number(value);
  };
  const companyId = number(values.company, '--company');
  return { role, userId: number(values.user, '--user') ?? (role === 'admin' ? 1 : 2), ...(companyId !== undefined && { companyId }) };
}
