import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.js';

/**
 * Every lead adapter tells the tools' one retry story (docs/prompts.md "Lead
 * adapters and hosts"): one retry per worker per run, a fresh session with a
 * retry dispatch kind — never the manifest dispatched again for one worker,
 * never a separate retry dispatch of a reverify round.
 */
const DIR = join(REPO_ROOT, 'prompts/lead/adapters');
const adapters = readdirSync(DIR).filter((f) => f.endsWith('.md'));

describe('the retry story of every lead adapter', () => {
  it('covers every adapter', () => {
    expect(adapters.sort()).toEqual(['claude-code.md', 'cmux.md', 'external.md', 'hosts.md']);
  });

  it.each(adapters)('%s: one retry per worker per run, with the retry dispatch kind', (file) => {
    const text = readFileSync(join(DIR, file), 'utf8').replace(/\s+/g, ' ');
    expect(text).toMatch(/one retry per worker per run/i);
    expect(text).toContain('initial-retry');
    expect(text).not.toMatch(/reverify-r<N>-retry/);
    expect(text).not.toMatch(/okstra team dispatch [^`]*--workers <id>/);
  });
});
