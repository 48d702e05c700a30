import { hashPassword } from '../domain/passwords.ts';

/**
 * Hashes each distinct password once per seeding, the first time it is asked for, on the
 * thread pool (scrypt is deliberately slow: about 50 ms a hash). The demo accounts share their
 * public password (docs/demo.md), so they share its hash and salt; the seed asks for the hashes of
 * all new accounts up front, so they are computed side by side rather than one after another.
 */
export type PasswordHasher = (password: string) => Promise<string>;

export function passwordHasher(): PasswordHasher {
  const hashes = new Map<string, Promise<string>>();
  return (password) => {
    let hash = hashes.get(password);
    if (!hash) {
      hash = hashPassword(password);
      // Awaited where it is used; never an unhandled rejection meanwhile.
      hash.catch(() => {});
      hashes.set(password, hash);
    }
    return hash;
  };
}
