// One lint configuration for every project (Nx infers a `lint` target for each
// project from this file through @nx/eslint/plugin).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', 'examples/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        AbortController: 'readonly',
        NodeJS: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // Libraries report through typed errors and io, never the console.
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.spec.ts', 'bench/**', 'tools/**', 'e2e/**', '**/scripts/**', '**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests poke at JSON documents of many shapes; `any` there is the honest type.
    files: ['**/*.spec.ts', '**/test-support/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
