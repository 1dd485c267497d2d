import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cachedHelp, helpRequestPath } from './version.js';

describe('helpRequestPath', () => {
  it.each([
    [['--help'], []],
    [['-h'], []],
    [['seed', '--help'], ['seed']],
    [
      ['error-issue', 'plan', '-h'],
      ['error-issue', 'plan'],
    ],
  ])('%j asks for the help of %j', (argv, path) => expect(helpRequestPath(argv)).toEqual(path));

  it.each([[[]], [['seed']], [['--help', 'seed']], [['seed', '--json', '--help']], [['help', 'seed']], [['Seed', '--help']]])(
    '%j is not a cacheable help request',
    (argv) => expect(helpRequestPath(argv)).toBeNull(),
  );
});

describe('cachedHelp', () => {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-help-'));
  const main = pathToFileURL(join(dir, 'main.js')).href;

  it('answers from help.json beside the main module, by command path', () => {
    writeFileSync(join(dir, 'help.json'), JSON.stringify({ schemaVersion: '1.0', texts: { '': 'top\n', 'error-issue plan': 'plan\n' } }));
    expect(cachedHelp(main, [])).toBe('top\n');
    expect(cachedHelp(main, ['error-issue', 'plan'])).toBe('plan\n');
    expect(cachedHelp(main, ['seed'])).toBeUndefined();
  });

  it('a missing, unreadable or foreign cache is no cache', () => {
    expect(cachedHelp(pathToFileURL(join(tmpdir(), 'okstra-no-such-dir', 'main.js')).href, [])).toBeUndefined();
    writeFileSync(join(dir, 'help.json'), '{"schemaVersion":"1.0","texts":');
    expect(cachedHelp(main, [])).toBeUndefined();
    writeFileSync(join(dir, 'help.json'), JSON.stringify({ schemaVersion: '9.9', texts: { '': 'x' } }));
    expect(cachedHelp(main, [])).toBeUndefined();
  });
});
