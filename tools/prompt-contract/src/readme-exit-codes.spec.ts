// README's opening section lists every exit code a tool can end with (`ExitCode`, libs/core).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ExitCode } from '@okstra/cli-kit';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('README exit codes', () => {
  it.each(Object.entries(ExitCode))('%s (%i) is listed before the quick start', (_name, code) => {
    const intro = readme.slice(0, readme.indexOf('## Quick start'));
    expect(intro).toContain(`**${code}**`);
  });
});
