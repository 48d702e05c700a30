/**
 * drizzle-kit configuration: `npm run db:generate` turns server/db/schema.ts into SQL
 * migrations under server/db/migrations, which the server applies at start (server/db/client.ts).
 */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
  strict: true,
  verbose: true,
});
