// One vitest config for every project: each project's `test` script points here.
// The `@okstra/source` condition makes workspace packages resolve to their
// TypeScript sources, so unit tests never need a prior build of their deps.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@okstra/source'] },
  ssr: { resolve: { conditions: ['@okstra/source'] } },
  test: {
    include: ['src/**/*.spec.ts', '*.spec.ts', 'tests/**/*.spec.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
