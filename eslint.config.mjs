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
// zod has one home: libs/schemas/src/zod.ts configures zod/mini (English messages) and re-exports it.
const ZOD = {
  regex: '^zod(/|$)',
  message: 'import * as z from \'@okstra/schemas/zod\' (zod/mini with its English messages configured once; docs/conventions.md "One rule, one home").',
};
// A named `z` is zod's namespace object as a value: the bundler then keeps all of zod (≈420 KiB), locales included.
const ZOD_NAMED_Z = {
  selector: "ImportDeclaration[source.value=/(^|\\/)zod(\\.js)?$/] > ImportSpecifier[imported.name='z']",
  message: "import * as z from '@okstra/schemas/zod': a named `z` makes the bundle keep every module of zod.",
};

// Collections of any size (docs/conventions.md "Sizes"): a spread into a call puts every element on the
// stack and throws past ~1e5 of them (a 90k-row team-state did). @okstra/core appendAll / maxOf / minOf loop.
const SPREAD_INTO_PUSH = {
  selector: 'CallExpression[callee.property.name=/^(push|unshift|splice)$/] > SpreadElement',
  message: 'appendAll(into, items) from @okstra/core: a spread into push() overflows the stack on a large collection.',
};
const SPREAD_INTO_MATH = {
  selector:
    "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min)$/] > SpreadElement, CallExpression[callee.property.name=/^(fromCharCode|fromCodePoint)$/] > SpreadElement",
  message: 'maxOf / minOf from @okstra/core: a spread into Math.max() overflows the stack on a large collection.',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', 'examples/**', 'tmp/**', '**/tmp/**'] },
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
  // zod is imported in one place only (libs/schemas/src/zod.ts); the blocks below repeat ZOD because
  // a later block's no-restricted-imports replaces an earlier one's options.
  {
    files: ['**/*.ts', '**/*.mjs'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ZOD] }], 'no-restricted-syntax': ['error', ZOD_NAMED_Z] },
  },
  {
    files: ['libs/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/test-support/**'],
    rules: { 'no-restricted-syntax': ['error', ZOD_NAMED_Z, SPREAD_INTO_PUSH, SPREAD_INTO_MATH] },
  },
  // Layering (docs/conventions.md "Layout"): apps → libs, never app → app or
  // lib → app; commander is cli-kit's alone, so a lib reports through
  // @okstra/core's typed errors and never drags a CLI parser into its installs.
  {
    files: ['libs/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [COMMANDER, TYPED_COMMANDER, CLI_KIT], patterns: [APPS, ZOD] }] },
  },
  {
    files: ['libs/cli-kit/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [APPS, ZOD] }] },
  },
  {
    files: ['apps/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [COMMANDER, TYPED_COMMANDER], patterns: [APPS, ZOD] }] },
  },
  {
    files: ['apps/**/*.ts'],
    ignores: ['apps/*/src/main.ts', 'apps/*/src/cli/**', '**/*.spec.ts', '**/test-support/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [COMMANDER, TYPED_COMMANDER], patterns: [APPS, CLI_DIR, ZOD] }] },
  },
  {
    // The home of zod itself.
    files: ['libs/schemas/src/zod.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [COMMANDER, TYPED_COMMANDER, CLI_KIT], patterns: [APPS] }] },
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
