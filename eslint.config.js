// ESLint: typescript-eslint and eslint-plugin-svelte, formatting left to Prettier.
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';

/**
 * SQL lives in src-main/core/db (docs/architecture.md §3): the app's code outside it asks a
 * repository instead of preparing a statement. Also run by `npm run lint:layers`
 * (scripts/lint-sql-room.ts), so it is part of `npm test`.
 */
export const sqlRoom = {
  files: ['src-main/**/*.ts'],
  ignores: ['src-main/core/db/**', '**/*.test.ts', '**/test-support/**'],
  languageOptions: { parser: tseslint.parser },
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: "CallExpression[callee.property.name='prepare']",
        message: 'SQL lives in src-main/core/db: add a repository method (core/db/repos) instead of .prepare( here.',
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'test-results/', 'e2e-artifacts/'] },
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only src-main/shell and src-main/preload may import electron.' }] },
      ],
    },
  },
  sqlRoom,
  {
    // CommonJS config files read by tools (dependency-cruiser) load with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src-main/shell/**', 'src-main/preload/**', 'e2e/electron/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
