// ESLint: typescript-eslint and eslint-plugin-svelte, formatting left to Prettier.
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';

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
