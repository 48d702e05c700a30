/**
 * `npm run mutation`: Stryker on the machines (stryker.config.mjs), then on the server's save
 * and login rules (stryker.server.config.mjs); README.md, "Mutation testing".
 *
 *   npm run mutation                         both, incremental
 *   npm run mutation -- machines             one of them (machines | server)
 *   npm run mutation -- --concurrency 1      any other argument goes to both Stryker runs
 *   npm run mutation -- --force              every mutant again, not only what changed
 *
 * Reports: reports/mutation/{machines,server}.html and .json. Exit code 0 when both runs
 * completed (the scores are for reading, not a gate).
 */
import { localBin, spawnNode, waitForExit } from './lib/process.ts';

const parts = { machines: 'stryker.config.mjs', server: 'stryker.server.config.mjs' } as const;
type Part = keyof typeof parts;

const args = process.argv.slice(2);
const isPart = (arg: string): arg is Part => Object.hasOwn(parts, arg);
const chosen = args.filter(isPart);
const passed = args.filter((arg) => !isPart(arg));

for (const part of chosen.length > 0 ? chosen : (Object.keys(parts) as Part[])) {
  console.log(`\n━━ mutation: ${part} (${parts[part]})`);
  const exit = await waitForExit(spawnNode(localBin('stryker'), ['run', parts[part], ...passed]));
  if (exit.code !== 0) {
    console.error(`mutation: the ${part} run failed (${exit.signal ?? `exit code ${exit.code}`})`);
    process.exit(exit.code ?? 1);
  }
}
