import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'server/db/migrations/**', 'locales/**/*.ts', '.e2e/**', '.stryker-tmp*/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Imports run one way (ARCHITECTURE.md): contract <- machines <- src; contract <- server;
  // server may use machines (the schedule history machine is the server's authority too).
  // Each layer's rule lists every restriction of that layer: a later block's
  // no-restricted-imports replaces an earlier one for the same files, it does not add to it.
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^\\.\\./', message: 'The contract sits below everything: it imports only its own files and valibot.' },
      ] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^\\.{1,2}/(.*/)?src/', message: 'The server never imports the browser app (src/): share through contract/.' },
      ] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '^\\.{1,2}/(.*/)?server/', message: 'The browser app never imports the server: share through contract/.' },
      ] }],
    },
  },
  {
    // Views hold no navigation and no fetch (the router follows the machine).
    files: ['src/screens/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'ofetch', message: 'Views send events; actors fetch.' },
          { name: '@tanstack/react-router', importNames: ['useNavigate', 'redirect'], message: 'Only the machine decides where to go.' },
        ],
        patterns: [{ regex: '^\\.{1,2}/(.*/)?server/', message: 'The browser app never imports the server: share through contract/.' }],
      }],
    },
  },
  {
    // Machines are plain TypeScript: no React, router, DOM calls or fetch; below the app and beside the server.
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['react', 'react-dom', '@tanstack/*', 'ofetch'], message: 'Machines are plain TypeScript.' },
        { regex: '^\\.{1,2}/(.*/)?(src|server)/', message: 'Machines never import the app (src/) or the server: share through contract/.' },
      ] }],
    },
  },
);
