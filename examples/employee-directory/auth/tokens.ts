import { jwtVerify, SignJWT } from 'jose';

/** Who a token speaks for: a seeded employee, with a role (and, once the directory has tenants, a company). */
export interface TokenClaims {
  /** The user: a seeded employee's id. */
  userId: number;
  role: 'admin' | 'guest';
  companyId?: number;
}

const ISSUER = 'employee-directory';
const AUDIENCE = 'employee-directory-api';
const ALGORITHM = 'HS256';
/** Tokens last a working day: `npm run token` prints a new one. */
const LIFETIME = '8h';
/** A key for development only: production refuses to start without MURAL_TOKEN_SECRET. */
const DEVELOPMENT_SECRET = 'employee-directory development key: set MURAL_TOKEN_SECRET in production';

/** MURAL_TOKEN_SECRET missing in production, or too short: the server does not start. */
export class TokenKeyError extends Error {}

/**
 * The key tokens are signed and checked with: MURAL_TOKEN_SECRET (at least
 * 32 characters), or in development a fixed key, so that `npm run token`
 * and `npm start` agree with nothing configured.
 */
export function tokenKey(env: NodeJS.ProcessEnv = process.env): Uint8Array {
  const secret = env.MURAL_TOKEN_SECRET;
  if (secret === undefined || secret === '') {
    if (env.NODE_ENV === 'production') throw new TokenKeyError('MURAL_TOKEN_SECRET is not set: in production, set it to a random key of at least 32 characters (openssl rand -base64 48).');
    return new TextEncoder().encode(DEVELOPMENT_SECRET);
  }
  if (secret.length < 32) throw new TokenKeyError('MURAL_TOKEN_SECRET is too short: give it at least 32 characters (openssl rand -base64 48).');
  return new TextEncoder().encode(secret);
}

/** A signed token (a JWT, HS256) for `claims`, valid for eight hours. */
export function signToken(claims: TokenClaims, key = tokenKey()): Promise<string> {
  const payload = { role: claims.role, ...(claims.companyId !== undefined && { company_id: claims.companyId }) };
  return new SignJWT(payload).setProtectedHeader({ alg: ALGORITHM }).setSubject(String(claims.userId)).setIssuer(ISSUER).setAudience(AUDIENCE).setIssuedAt().setExpirationTime(LIFETIME).sign(key);
}

/**
 * The claims of a token this app signed, or undefined for any other: a bad
 * signature, another algorithm, issuer or audience, an expired token, or
 * claims of the wrong shape.
 */
export async function verifyToken(token: string, key = tokenKey()): Promise<TokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: [ALGORITHM] });
    const userId = Number(payload.sub);
    const role = payload.role;
    const companyId = payload.company_id;
    if (!Number.isSafeInteger(userId) || userId < 1 || (role !== 'admin' && role !== 'guest')) return undefined;
    if (companyId !== undefined && !Number.isSafeInteger(companyId)) return undefined;
    return { userId, role, ...(typeof companyId === 'number' && { companyId }) };
  } catch {
    return undefined;
  }
}
