import { signToken } from '../../examples/employee-directory/auth/tokens.ts';

/**
 * The headers of the example's admin and guest, as `npm run token` would
 * give them: a bearer token for seeded employee 1 (admin) or 2 (guest),
 * signed with the key the example server checks (the development key
 * unless MURAL_TOKEN_SECRET is set). Tokens last eight hours.
 */
export const ADMIN: Readonly<Record<string, string>> = { Authorization: `Bearer ${await signToken({ role: 'admin', userId: 1 })}` };
export const GUEST: Readonly<Record<string, string>> = { Authorization: `Bearer ${await signToken({ role: 'guest', userId: 2 })}` };

/** Whether a request's headers (any case) carry the admin's token. */
export function isAdmin(headers: Readonly<Record<string, string>> | undefined): boolean {
  if (!headers) return false;
  return Object.entries(headers).some(([name, value]) => name.toLowerCase() === 'authorization' && value === ADMIN.Authorization);
}
