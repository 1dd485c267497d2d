#!/usr/bin/env node
// Create a new lib or app package with the workspace's conventions:
//   node tools/scaffold-package.mjs lib <name> "<description>"
//   node tools/scaffold-package.mjs app <bin-name> "<description>"
// Libs are published as @okstra/<name>; apps as <bin-name> with a bin of the same name.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [kind, name, description = ''] = process.argv.slice(2);
if (!['lib', 'app'].includes(kind) || !name) {
  console.error('usage: scaffold-package.mjs <lib|app> <name> [description]');
  process.exit(2);
}
const dir = join(kind === 'lib' ? 'libs' : 'apps', name);
if (existsSync(dir)) {
  console.error(`${dir} exists`);
  process.exit(2);
}
mkdirSync(join(dir, 'src'), { recursive: true });
const entry = (sub) => ({
  '@okstra/source': `./src/${sub}.ts`,
  types: `./dist/${sub}.d.ts`,
  default: `./dist/${sub}.js`,
});
const pkg = {
  name: kind === 'lib' ? `@okstra/${name}` : name,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  engines: { node: '>=20' },
  ...(kind === 'app' ? { bin: { [name]: './dist/bin.js' } } : {}),
  exports: { '.': entry(kind === 'app' ? 'main' : 'index'), './package.json': './package.json' },
  files: ['dist', '!dist/**/*.spec.*', '!dist/.tsbuildinfo'],
  scripts: {
    build: 'tsc -p tsconfig.lib.json',
    test: 'vitest run --config ../../vitest.shared.mjs',
    typecheck: 'tsc -p tsconfig.json --noEmit',
  },
  dependencies: {},
};
writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify(
    {
      extends: '../../tsconfig.base.json',
      compilerOptions: { customConditions: ['@okstra/source'], noEmit: true },
      include: ['src/**/*.ts'],
    },
    null,
    2,
  ) + '\n',
);
writeFileSync(
  join(dir, 'tsconfig.lib.json'),
  JSON.stringify(
    {
      extends: '../../tsconfig.base.json',
      compilerOptions: { rootDir: 'src', outDir: 'dist', tsBuildInfoFile: 'dist/.tsbuildinfo' },
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.spec.ts', 'src/**/test-support/**'],
    },
    null,
    2,
  ) + '\n',
);
console.log(`created ${dir}`);
