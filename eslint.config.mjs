// One lint configuration for every project (Nx infers a `lint` target for each
// project from this file through @nx/eslint/plugin).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const APP_NAMES = ['okstra', 'okstra-*'];
const APPS = {
  group: [...APP_NAMES, ...APP_NAMES.map((n) => `${n}/*`), '**/apps/*', '../**/okstra', '../**/okstra/**', '../**/okstra-*', '../**/okstra-*/**'],
  message: 'libs never import apps; apps never import other apps (docs/conventions.md "Layout").',
};
const COMMANDER = {
  name: 'commander',
  message: 'only @okstra/cli-kit imports commander (apps take the typed Command/Option from it; libs throw @okstra/core errors).',
};
const TYPED_COMMANDER = {
  name: '@commander-js/extra-typings',
  message: 'only @okstra/cli-kit imports commander; apps take Command/Option from @okstra/cli-kit.',
};
const CLI_DIR = {
  group: ['**/cli/*', '**/cli/**'],
  message: "a command's work never imports from cli/: its options type lives beside the work and the flag definitions are checked against it.",
};
const CLI_KIT = { name: '@okstra/cli-kit', message: 'libs import @okstra/core (dependency-free), never the CLI kit.' };

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
  // Layering (docs/conventions.md "Layout"): apps → libs, never app → app or
  // lib → app; commander is cli-kit's alone, so a lib reports through
  // @okstra/core's typed errors and never drags a CLI parser into its installs.
  {
    files: ['libs/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [COMMANDER, TYPED_COMMANDER, CLI_KIT], patterns: [APPS] }] },
  },
  {
    files: ['libs/cli-kit/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [APPS] }] },
  },
  {
    files: ['apps/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [COMMANDER, TYPED_COMMANDER], patterns: [APPS] }] },
  },
  {
    files: ['apps/**/*.ts'],
    ignores: ['apps/*/src/main.ts', 'apps/*/src/cli/**', '**/*.spec.ts', '**/test-support/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [COMMANDER, TYPED_COMMANDER], patterns: [APPS, CLI_DIR] }] },
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
