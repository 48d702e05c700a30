/**
 * Imports run one way (ARCHITECTURE.md): contract <- machines <- src, contract <- server, and
 * server may use machines. The lint rules in eslint.config.js say so; this test proves each rule
 * can fail by linting a one-line probe in each layer against the project's own configuration.
 */
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function problemsOf(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const probe = imported;\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('imports run one way', () => {
  test.each([
    ['machines/exam/probe.ts', "import { imported } from '../../src/app/product.ts';", 'Machines never import'],
    ['machines/exam/probe.ts', "import { imported } from '../../server/app.ts';", 'Machines never import'],
    ['server/routes/probe.ts', "import { imported } from '../../src/i18n/format.ts';", 'The server never imports'],
    ['src/app/probe.ts', "import { imported } from '../../server/config.ts';", 'The browser app never imports'],
    ['src/screens/exam/probe.tsx', "import { imported } from '../../../server/config.ts';", 'The browser app never imports'],
    ['contract/probe.ts', "import { imported } from '../machines/exam/exam.machine.ts';", 'The contract sits below everything'],
    ['contract/probe.ts', "import { imported } from '../src/i18n/format.ts';", 'The contract sits below everything'],
  ])('%s may not %s', async (file, source, message) => {
    const problems = await problemsOf(file, source);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  test.each([
    ['machines/exam/probe.ts', "import { imported } from '../../contract/exam.ts';"],
    ['server/routes/probe.ts', "import { imported } from '../../machines/schedule-history/schedule-history.machine.ts';"],
    ['src/app/probe.ts', "import { imported } from '../../machines/exam/exam.machine.ts';"],
    ['contract/probe.ts', "import { imported } from './exam.ts';"],
  ])('%s may %s', async (file, source) => {
    expect(await problemsOf(file, source)).toEqual([]);
  });
});
