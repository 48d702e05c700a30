/**
 * The production build, as `npm run build` does it: `vite build` into dist/ (the Lingui
 * plugin compiles each .po catalog as it is imported). Shared by `npm test` (its build step) and the end-to-end runner
 * (which builds only when dist/ is missing, or when asked with --build).
 */
import { localBin, spawnNode, waitForExit } from './process.ts';

export const buildCommands: Array<{ bin: string; args: string[] }> = [
  { bin: 'vite', args: ['build'] },
];

/** Runs the build with its output streamed; resolves to the first non-zero exit code, or 0. */
export async function build(): Promise<number> {
  for (const { bin, args } of buildCommands) {
    console.log(`$ ${bin} ${args.join(' ')}`);
    const exit = await waitForExit(spawnNode(localBin(bin), args));
    if (exit.code !== 0) return exit.code ?? 1;
  }
  return 0;
}
