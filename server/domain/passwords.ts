/**
 * Password hashing with node:crypto's scrypt: a random 16-byte salt per password, stored as
 * `scrypt$N$r$p$salt$hash` (base64url), compared in constant time. The parameters travel with
 * each hash, so they can be raised later without breaking stored passwords.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** Caps what a stored hash may ask of the CPU and memory (a tampered row must not stall the process). */
const MAX_N = 1 << 17;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of nothing anyone knows: checked when the account does not exist, so both cases take as long. */
let decoy: Promise<string> | undefined;

/** True when `password` matches `stored`; an unknown account (`stored` null) is checked against a decoy. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored === null) {
    decoy ??= hashPassword(randomBytes(16).toString('hex'));
    await verifyPassword(password, await decoy);
    return false;
  }
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const N = Number(n);
  if (scheme !== 'scrypt' || !salt || !hash || !Number.isInteger(N) || N < 2 || N > MAX_N) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N, r: Number(r), p: Number(p) });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
