import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import boundaries: contract ← server, contract ← apps; features never reach into each other. */
const boundaries = {
  'import-x/no-restricted-paths': [
    'error',
    {
      zones: [
        {
          target: './packages/contract',
          from: ['./server', './web', './admin', './e2e'],
          message: 'The contract depends on nothing of ours.',
        },
        { target: './server', from: ['./web', './admin', './e2e'], message: 'The server depends only on the contract.' },
        { target: './web', from: ['./server', './admin'], message: 'The member app depends only on the contract.' },
        { target: './admin', from: ['./server', './web'], message: 'The console depends only on the contract.' },
        {
          target: './web/src/lib',
          from: ['./web/src/features', './web/src/app/layout'],
          message: 'lib is shared infrastructure; it does not know features.',
        },
        {
          target: './admin/src/lib',
          from: ['./admin/src/features'],
          message: 'lib is shared infrastructure; it does not know features.',
        },
        ...['web', 'admin'].flatMap((app) =>
          readdirSync(`./${app}/src/features`).map((feature) => ({
            target: `./${app}/src/features/${feature}`,
            from: `./${app}/src/features`,
            except: [`./${feature}`],
            message: 'Features do not import each other; share through lib/, api/ or components/.',
          })),
        ),
      ],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '.tmp/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', 'vitest.config.ts', 'scripts/*.mjs', 'scripts/*.d.mts', 'server/build.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify plugins and handlers are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'Use the CSPRNG (node:crypto or crypto.getRandomValues).',
        },
        {
          selector: "CallExpression[callee.name='parseFloat']",
          message: 'Money is never a float: use the contract money module.',
        },
      ],
      ...boundaries,
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['**/*.test.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/unbound-method': 'off' },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
);
