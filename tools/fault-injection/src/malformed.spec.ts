// Malformed-input matrix: every JSON input of every command given a corpus of
// bad documents (100k-deep nesting, 1e999, truncated, empty, not UTF-8, a
// top-level array, another artifact, the real input with its first key named
// twice — JSON.parse would keep the real, last value), every Markdown input 64k nested quotes
// and a 100-deep list: exit 2 naming the file, never exit 70, never a hang,
// nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, argvOf } from './commands.js';
import { changed, cleanRefusal, cleanup, pool, prepare, printTable, run, scenario, snapshot, type Scenario } from './support.js';

let s: Scenario;
let bad: string;
beforeAll(async () => {
  s = scenario();
  await prepare(s);
  bad = join(s.project, '.okstra', 'malformed');
  mkdirSync(bad);
});
afterAll(cleanup);

/** `original` is the scenario's real, valid file for that argument. */
const JSON_CORPUS: Array<[string, (original: string) => string | Buffer]> = [
  ['100k-deep nesting', () => '['.repeat(100_000) + ']'.repeat(100_000)],
  ['1e999', () => '{"schemaVersion":"1.0","n":1e999}'],
  ['truncated', () => '{"schemaVersion":"1.0","workers":[{"id":'],
  ['empty', () => ''],
  ['not UTF-8', () => Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['a top-level array', () => '[1,2,3]'],
  ['another artifact (a provider manifest)', () => '{"schemaVersion":"1.0","id":"x","kind":"something-else"}'],
  [
    'its first key named twice (a shadow null, then the real value)',
    (original) => original.replace('{', `{${JSON.stringify(Object.keys(JSON.parse(original) as object)[0])}: null, `),
  ],
];
const MD_CORPUS: Array<[string, () => string]> = [
  ['64k nested block quotes (128 KB)', () => '### F-001\n\n' + '> '.repeat(65_536) + 'x\n'],
  ['a list nested 100 deep', () => Array.from({ length: 100 }, (_, i) => ' '.repeat(2 * i) + '- x').join('\n') + '\n'],
];

describe('malformed inputs', () => {
  it('every JSON and Markdown input of every command: exit 2 naming the file, nothing changed', async () => {
    const cases = COMMANDS.flatMap((cmd) =>
      cmd.files.flatMap((f) => {
        if (f.role === 'json') return JSON_CORPUS.map(([what, make]) => ({ cmd, f, what, make }));
        if (f.role === 'md') return MD_CORPUS.map(([what, make]) => ({ cmd, f, what, make }));
        return [];
      }),
    );
    const paths = cases.map((c, i) => {
      const p = join(bad, `${i}-${c.f.role === 'md' ? 'response.md' : 'input.json'}`);
      // The real file where the scenario has one (the error-issue plan is made later: a minimal stand-in).
      const real = c.f.role === 'json' && existsSync(c.f.path(s)) ? readFileSync(c.f.path(s), 'utf8') : '{"schemaVersion":"1.0"}';
      writeFileSync(p, c.make(real));
      return p;
    });
    const skip = (rel: string) => rel.includes('.okstra/malformed');
    const before = snapshot(s.tmp, skip);
    const failures: string[] = [];
    let hangs = 0;
    let exit70 = 0;
    await pool(cases, 4, async (c, i) => {
      const p = paths[i] as string;
      const r = await run(c.cmd.bin, argvOf(c.cmd, s, { [c.f.flag]: p }), { cwd: s.project, env: c.cmd.env?.(s), timeoutMs: 20_000 });
      if (r.hung) hangs++;
      if (r.code === 70) exit70++;
      if (!cleanRefusal(r) || !r.stderr.includes(p))
        failures.push(`${c.cmd.name} ${c.f.flag}=<${c.what}>: exit ${r.code}${r.hung ? ' (hung)' : ''} ${r.stderr.trim().slice(0, 200)}`);
    });
    const diff = changed(before, snapshot(s.tmp, skip));
    if (diff.length > 0) failures.push(`files changed: ${diff.join(', ')}`);
    for (const f of failures) process.stderr.write(`FAIL ${f}\n`);
    printTable('malformed inputs', [
      {
        test: 'each JSON / Markdown input of every command × corpus',
        tries: cases.length,
        failures: failures.length,
        note: `${hangs} hangs, ${exit70} exit 70`,
      },
    ]);
    expect(failures).toEqual([]);
  }, 300_000);
});
