import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from '@okstra/schemas/zod';
import { assertRegularIfExists, isRegularIfExists, readJsonFile, readJsonFileSync, readTextFile, formatJsonPath } from './read-file.js';
import { assertOutputNotInput, writeJsonAtomic, serializeJson, writeTextAtomic } from './write-file.js';
import { withFileLock } from './file-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'okstra-state-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const Doc = z.object({ schemaVersion: z.literal('1.0'), workers: z.array(z.object({ id: z.string() })) });

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe('readJsonFile', () => {
  it('returns the parsed, validated value', async () => {
    const p = file('ok.json', '{"schemaVersion":"1.0","workers":[{"id":"claude"}]}');
    expect(await readJsonFile(p, { schema: Doc, schemaVersions: ['1.0'] })).toEqual({ schemaVersion: '1.0', workers: [{ id: 'claude' }] });
  });

  it.each([
    ['a missing file', () => join(dir, 'nope.json'), 'file not found'],
    ['a directory', () => (mkdirSync(join(dir, 'adir'), { recursive: true }), join(dir, 'adir')), 'is a directory, expected a file'],
    ['an empty file', () => file('empty.json', '  \n'), 'file is empty, expected JSON'],
    ['truncated JSON', () => file('trunc.json', '{"schemaVersion":"1.0","workers":['), 'is not valid JSON (truncated or malformed)'],
    ['non-UTF-8 bytes', () => file('latin1.json', Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d])), 'is not valid UTF-8 text'],
  ])('refuses %s with a message naming the file', async (_what, make, message) => {
    const p = make();
    await expect(readJsonFile(p)).rejects.toMatchObject({ file: p, exitCode: 2, message: expect.stringContaining(message) });
    expect(() => readJsonFileSync(p)).toThrow(expect.objectContaining({ file: p, exitCode: 2, message: expect.stringContaining(message) }));
  });

  it.each([
    [
      'a FIFO',
      () => {
        const p = join(dir, 'fifo.json');
        execFileSync('mkfifo', [p]);
        return p;
      },
    ],
    [
      'a symlink to /dev/zero',
      () => {
        const p = join(dir, 'zero.json');
        symlinkSync('/dev/zero', p);
        return p;
      },
    ],
  ])('refuses %s at once instead of blocking or reading forever', async (_what, make) => {
    const p = make();
    const message = 'is not a regular file (a FIFO, socket or device)';
    await expect(readJsonFile(p)).rejects.toMatchObject({ file: p, message });
    expect(() => readJsonFileSync(p)).toThrow(message);
  });

  it('isRegularIfExists is assertRegularIfExists as a predicate: absent or regular is true, a FIFO, device or directory false', () => {
    const fifo = join(dir, 'pred.fifo');
    execFileSync('mkfifo', [fifo]);
    const cases: Array<[string, boolean]> = [
      [file('pred.json', '{}'), true],
      [join(dir, 'pred-missing.json'), true],
      [fifo, false],
      ['/dev/null', false],
      [dir, false],
    ];
    for (const [p, regular] of cases) {
      expect(isRegularIfExists(p)).toBe(regular);
      if (regular) expect(() => assertRegularIfExists(p)).not.toThrow();
      else expect(() => assertRegularIfExists(p)).toThrow(/regular file|directory/);
    }
  });

  it('follows a symlink to a regular file', async () => {
    const target = file('target.json', '{"a":1}');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    expect(await readJsonFile(link)).toEqual({ a: 1 });
  });

  it('reads the same value synchronously', () => {
    const p = file('ok-sync.json', '\uFEFF{"schemaVersion":"1.0","workers":[]}');
    expect(readJsonFileSync(p, { schema: Doc, schemaVersions: ['1.0'] })).toEqual({ schemaVersion: '1.0', workers: [] });
  });

  it('refuses an unknown schemaVersion listing the supported ones', async () => {
    const p = file('v9.json', '{"schemaVersion":"9.9","workers":[]}');
    await expect(readJsonFile(p, { schema: Doc, schemaVersions: ['1.0'] })).rejects.toMatchObject({
      field: 'schemaVersion',
      message: 'unsupported schemaVersion "9.9" (supported: 1.0)',
    });
  });

  it('names the JSON path of the first schema issue', async () => {
    const p = file('bad.json', '{"schemaVersion":"1.0","workers":[{"id":"a"},{"id":7}]}');
    await expect(readJsonFile(p, { schema: Doc })).rejects.toMatchObject({ file: p, field: 'workers[1].id' });
  });

  it('refuses files over the size limit', async () => {
    const p = file('big.md', 'x'.repeat(2048));
    await expect(readTextFile(p, { maxBytes: 1024 })).rejects.toMatchObject({ message: 'file is too large (2048 bytes, limit 1024)' });
  });

  it('formats JSON paths', () => {
    expect(formatJsonPath([])).toBe('$');
    expect(formatJsonPath(['a', 0, 'b', 'c'])).toBe('a[0].b.c');
  });
});

describe('writeJsonAtomic', () => {
  it('writes stable JSON by default and preserves key order on request', async () => {
    const p = join(dir, 'nested', 'state.json');
    await writeJsonAtomic(p, { b: 1, a: 2 });
    expect(readFileSync(p, 'utf8')).toBe('{\n  "a": 2,\n  "b": 1\n}\n');
    await writeJsonAtomic(p, { b: 1, a: 2 }, { keyOrder: 'preserve' });
    expect(readFileSync(p, 'utf8')).toBe('{\n  "b": 1,\n  "a": 2\n}\n');
    expect(serializeJson([1])).toBe('[\n  1\n]\n');
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json']);
  });
});

describe('writeTextAtomic refusals (exit 2, nothing replaced)', () => {
  it('a directory, a path under a file, and a device are refused naming the path', async () => {
    mkdirSync(join(dir, 'outdir'), { recursive: true });
    await expect(writeTextAtomic(join(dir, 'outdir'), 'x')).rejects.toMatchObject({ exitCode: 2, message: 'is a directory, expected a file to write' });
    const plain = file('plain.txt', 'keep');
    await expect(writeTextAtomic(join(plain, 'x.json'), 'x')).rejects.toMatchObject({
      exitCode: 2,
      file: join(plain, 'x.json'),
      message: 'cannot create it: a parent path is a file, not a directory',
    });
    expect(readFileSync(plain, 'utf8')).toBe('keep');
    await expect(writeTextAtomic('/dev/null', 'x')).rejects.toMatchObject({ message: 'is not a regular file; refusing to replace it' });
  });
});

describe('assertOutputNotInput', () => {
  it('refuses an output that is an input, also through a symlink', () => {
    const input = file('work.json', '{}');
    expect(() => assertOutputNotInput({ path: input, flag: '--plan' }, [{ path: input, flag: '--work-state' }])).toThrow(
      '--plan is the same file as --work-state; refusing to overwrite an input',
    );
    const link = join(dir, 'plan-link.json');
    symlinkSync(input, link);
    expect(() => assertOutputNotInput({ path: link, flag: '--plan' }, [{ path: input, flag: '--work-state' }])).toThrow(/same file/);
    expect(() => assertOutputNotInput({ path: join(dir, 'new.json'), flag: '--plan' }, [{ path: input, flag: '--work-state' }])).not.toThrow();
  });
});

describe('withFileLock', () => {
  it('serializes concurrent read-modify-write in one process', async () => {
    const p = join(dir, 'counter.json');
    await writeJsonAtomic(p, { n: 0 });
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(p, async () => {
          const { n } = JSON.parse(readFileSync(p, 'utf8')) as { n: number };
          await new Promise((r) => setTimeout(r, 1));
          await writeJsonAtomic(p, { n: n + 1 });
        }),
      ),
    );
    expect(JSON.parse(readFileSync(p, 'utf8'))).toEqual({ n: 20 });
  });

  // A new user's `seed --work-state /proc/w.json` spun for 10 minutes on mkdir ENOENT: a place where
  // no lock directory can be made (a parent that is gone, /proc) is one line at once, never a wait.
  it('refuses a directory where nothing can be made (/proc) at once, with the lock path and ENOENT', async () => {
    const started = Date.now();
    await expect(withFileLock('/proc/okstra-no-lock.json', async () => 1)).rejects.toThrow(/cannot create its lock .*\(ENOENT\); nothing was changed/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
