// docs/environment.md lists every environment variable a tool reads: the
// sources of every lib and app (tests and test-support aside) are scanned for
// `env.NAME`, `env['NAME']` and quoted OKSTRA_* knob names read through a helper.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ENVIRONMENT, TEST_SEAMS } from './environment.js';

const repoRoot = new URL('../../../', import.meta.url).pathname;
/** OKSTRA_* strings that are error codes, not variables. */
const isErrorCode = (s: string) =>
  /^OKSTRA_(USAGE|INPUT_INVALID|INTERNAL|LOCK_TIMEOUT|GH_[A-Z_]+|[A-Z_]*_(FAILED|INVALID|MISSING|UNAVAILABLE|UNRECORDED))$/.test(s);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'test-support' || name === 'node_modules' || name === 'dist' ? [] : sources(p);
    return p.endsWith('.ts') && !p.endsWith('.spec.ts') ? [p] : [];
  });
}

describe('docs/environment.md', () => {
  it('lists every environment variable the sources read', () => {
    const read = new Set<string>();
    for (const top of ['libs', 'apps']) {
      for (const pkg of readdirSync(join(repoRoot, top))) {
        for (const file of sources(join(repoRoot, top, pkg, 'src'))) {
          const text = readFileSync(file, 'utf8');
          for (const m of text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)\b|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|['"](OKSTRA_[A-Z0-9_]+)['"]/g)) {
            const name = m[1] ?? m[2] ?? m[3]!;
            if (!isErrorCode(name)) read.add(name);
          }
        }
      }
    }
    const listed = new Set([...ENVIRONMENT, ...TEST_SEAMS].map((v) => v.name));
    expect([...read].filter((n) => !listed.has(n)).sort()).toEqual([]);
    expect([...listed].filter((n) => !read.has(n)).sort()).toEqual([]);
  });
});
