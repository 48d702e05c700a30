/**
 * `npm run demo-idp`: a local OpenID Connect identity provider (oidc-provider) on
 * http://127.0.0.1:4000, so single sign-on can be tried on a fresh machine with no account
 * anywhere. Its sign-in page lists the demo users; pick one and the provider sends the browser
 * back to Gradus. The same provider runs inside the SSO tests (test/api/sso.test.ts), on a
 * random port with the test's own users.
 *
 * Demo users (their `sub` is the pupil's login ID with us; `school` and `role` ride in the ID
 * token, as Gradus's defaults OIDC_SCHOOL_CLAIM=school, OIDC_ROLE_CLAIM=role expect):
 *   sso-pupil-1     pupil of GRADUS-OAUTH (login method 2)      -> signed in, exam list
 *   sso-teacher     teacher of GRADUS-OAUTH                     -> invalid_role
 *   sso-elsewhere   pupil of a school Gradus does not know      -> school_notfound
 *   sso-nobody      pupil of GRADUS-OAUTH without an examinee   -> user_notfound
 * (sso-pupil-1 is Aiko Tanaka of server/seed/demo-accounts.json, scenario "sso".)
 * "Cancel" answers access_denied, which Gradus reports as `unknown`.
 *
 * Env: DEMO_IDP_PORT (default 4000), DEMO_IDP_REDIRECT_URIS (comma-separated; default the
 * callbacks of `npm start` on :3000 and `npm run dev` on :5173), DEMO_IDP_CLIENT_SECRET (default:
 * a new random secret each run, printed at start). Client: gradus-demo. A development tool
 * (oidc-provider is a devDependency): never for production, its keys and sessions live in
 * memory and vanish when it stops.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export type DemoIdpAccount = {
  /** The `sub`: the pupil's login ID with Gradus. */
  id: string;
  /** What the sign-in page shows. */
  label: string;
  /** Extra ID token claims (school, role, name...). */
  claims: Record<string, string | string[]>;
};

export type DemoIdpClient = { clientId: string; clientSecret: string; redirectUris: string[] };

export type DemoIdpOptions = {
  /** Default 4000; 0 picks a free port. */
  port?: number;
  clients: DemoIdpClient[];
  accounts: DemoIdpAccount[];
};

export type RunningDemoIdp = {
  /** e.g. http://127.0.0.1:4000 */
  issuer: string;
  /** Users by id; tests add and change users while the provider runs. */
  accounts: Map<string, DemoIdpAccount>;
  close(): Promise<void>;
};

/** The client Gradus signs in as; its secret is DEMO_IDP_CLIENT_SECRET or new for each process, never a published one. */
export const demoClient: DemoIdpClient = {
  clientId: 'gradus-demo',
  clientSecret: process.env.DEMO_IDP_CLIENT_SECRET || randomBytes(24).toString('base64url'),
  redirectUris: ['http://localhost:3000/api/sso/oidc/callback', 'http://localhost:5173/api/sso/oidc/callback'],
};

export const demoAccounts: DemoIdpAccount[] = [
  { id: 'sso-pupil-1', label: 'Aiko Tanaka, pupil of GRADUS-OAUTH', claims: { name: 'Aiko Tanaka', school: 'GRADUS-OAUTH', role: 'pupil' } },
  { id: 'sso-teacher', label: 'Mr Brown, teacher of GRADUS-OAUTH (invalid_role)', claims: { name: 'David Brown', school: 'GRADUS-OAUTH', role: 'teacher' } },
  { id: 'sso-elsewhere', label: 'Pupil of an unknown school (school_notfound)', claims: { name: 'Sam Lee', school: 'NO-SUCH-SCHOOL', role: 'pupil' } },
  { id: 'sso-nobody', label: 'Pupil of GRADUS-OAUTH without an examinee (user_notfound)', claims: { name: 'Jonas Berg', school: 'GRADUS-OAUTH', role: 'pupil' } },
];

export async function startDemoIdp(options: DemoIdpOptions): Promise<RunningDemoIdp> {
  const accounts = new Map(options.accounts.map((a) => [a.id, a]));
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4000, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const configuration: Configuration = {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'demo', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], profile: ['name', 'school', 'role'] },
    // Put the scope's claims into the ID token itself, where Gradus reads them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...account.claims }) };
    },
    // A first-party demo: consent is implied, so the only question is who signs in.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope('openid profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  const oidcCallback = provider.callback();

  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) {
      oidcCallback(req, res);
      return;
    }
    handleInteraction(provider, accounts, req, res, match[2]).catch((error: unknown) => {
      if (!res.headersSent) {
        res.statusCode = 400;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      }
      res.end(`Sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });

  return {
    issuer,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handleInteraction(
  provider: Provider,
  accounts: Map<string, DemoIdpAccount>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  action: string | undefined,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'POST' && action === '/login') {
    const account = new URLSearchParams(await readBody(req)).get('account') ?? '';
    if (!accounts.has(account)) throw new Error('no such demo user');
    await provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
    return;
  }
  if (req.method === 'POST' && action === '/abort') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The user cancelled the sign-in.' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (req.method !== 'GET' || action !== undefined) throw new Error('unexpected interaction request');

  const uid = details.uid;
  const rows = [...accounts.values()]
    .map(
      (a) => `<form method="post" action="/interaction/${uid}/login"><input type="hidden" name="account" value="${escapeHtml(a.id)}">` +
        `<button type="submit">${escapeHtml(a.label)}</button> <code>${escapeHtml(a.id)}</code></form>`,
    )
    .join('\n');
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo identity provider</title>
<style>body{font:18px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem;margin:.25rem 0}</style></head>
<body><h1>Sign in to the demo identity provider</h1><p>Client <code>${escapeHtml(String(details.params.client_id))}</code> asks who you are. Choose a demo user:</p>
${rows}
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form></body></html>`);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) reject(new Error('body too large'));
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

async function main(): Promise<void> {
  const port = Number(process.env.DEMO_IDP_PORT ?? 4000);
  const redirectUris = process.env.DEMO_IDP_REDIRECT_URIS?.split(',').map((u) => u.trim()).filter(Boolean) ?? demoClient.redirectUris;
  const idp = await startDemoIdp({ port, clients: [{ ...demoClient, redirectUris }], accounts: demoAccounts });
  console.log(`Demo identity provider at ${idp.issuer} (client ${demoClient.clientId}; redirect URIs: ${redirectUris.join(', ')})`);
  console.log('Start Gradus against it, in another terminal:');
  console.log(`  OIDC_ISSUER=${idp.issuer} OIDC_CLIENT_ID=${demoClient.clientId} OIDC_CLIENT_SECRET=${demoClient.clientSecret} npm start`);
  console.log('  (with `npm run dev`, add PUBLIC_ORIGIN=http://localhost:5173)');
  console.log('Then open http://localhost:3000/api/sso/oidc/start?school=GRADUS-OAUTH and pick a user:');
  for (const account of demoAccounts) console.log(`  ${account.id.padEnd(14)} ${account.label}`);
  const stop = () => void idp.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
