import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from '@okstra/schemas/zod';
import { defineArtifact } from '@okstra/schemas/artifact';
import { readArtifact, readArtifactIfExists, readArtifactSync, writeArtifact } from './artifact-io.js';
import { withFileLock } from './file-lock.js';
import { MAX_JSON_DEPTH } from './json-guard.js';
import { TEMP_MARK, writeTextAtomic } from './write-file.js';

const dir = mkdtempSync(join(tmpdir(), 'okstra-artifact-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const counter = defineArtifact('test-counter', ['1.0'], 'a test artifact', z.looseObject({ schemaVersion: z.literal('1.0'), n: z.int() }));
const other = defineArtifact('test-other', ['2.0'], 'another artifact', z.looseObject({ schemaVersion: z.literal('2.0'), name: z.string() }));

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe('readArtifact / writeArtifact', () => {
  it('round-trips a value; versions come from the artifact', async () => {
    const p = join(dir, 'sub', 'c.json');
    await writeArtifact(p, counter, { schemaVersion: '1.0', n: 3 });
    expect(await readArtifact(p, counter)).toEqual({ schemaVersion: '1.0', n: 3 });
    expect(readArtifactSync(p, counter).n).toBe(3);
    expect(readArtifactIfExists(join(dir, 'none.json'), counter)).toBeUndefined();
    await expect(readArtifact(p, other)).rejects.toMatchObject({
      exitCode: 2,
      field: 'schemaVersion',
      message: 'unsupported schemaVersion "1.0" (supported: 2.0)',
    });
  });

  it('the writer is typed by the reader schema, and checked at run time', async () => {
    const p = join(dir, 'typed.json');
    // @ts-expect-error n must be a number: the schema the reader uses says so
    await expect(writeArtifact(p, counter, { schemaVersion: '1.0', n: 'three' })).rejects.toThrow(/refusing to write an invalid test-counter/);
    expect(existsSync(p)).toBe(false);
  });

  it('refuses to replace a file of another artifact kind, and leaves it untouched', async () => {
    const p = file('groups.json', '{"schemaVersion":"2.0","name":"keep"}\n');
    await expect(writeArtifact(p, counter, { schemaVersion: '1.0', n: 1 })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('holds something other than a test-counter'),
    });
    expect(readFileSync(p, 'utf8')).toBe('{"schemaVersion":"2.0","name":"keep"}\n');
    await writeArtifact(p, counter, { schemaVersion: '1.0', n: 1 }, { replace: 'any' });
    expect(readArtifactSync(p, counter).n).toBe(1);
  });
});

describe('non-regular files are refused at once (one rule: readRegularFileSync / writeBytesAtomic)', () => {
  const fifo = join(dir, 'fifo.json');
  execFileSync('mkfifo', [fifo]);
  mkdirSync(join(dir, 'adir'));
  it.each([
    ['a FIFO', fifo, 'is not a regular file (a FIFO, socket or device)'],
    ['a device', '/dev/zero', 'is not a regular file (a FIFO, socket or device)'],
    ['a directory', join(dir, 'adir'), 'is a directory, expected a file'],
  ])('reading %s', async (_what, p, message) => {
    await expect(readArtifact(p, counter)).rejects.toMatchObject({ exitCode: 2, file: p, message });
  });

  it('a socket, for reading and writing', async () => {
    const sock = join(dir, 's.sock');
    const server = createServer().listen(sock);
    await new Promise((r) => server.once('listening', r));
    try {
      await expect(readArtifact(sock, counter)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('not a regular file') });
      await expect(writeArtifact(sock, counter, { schemaVersion: '1.0', n: 1 })).rejects.toMatchObject({ exitCode: 2 });
    } finally {
      server.close();
    }
  });

  it('writing over a FIFO or through a symlink is exit 2; the link target is untouched', async () => {
    await expect(writeArtifact(fifo, counter, { schemaVersion: '1.0', n: 1 })).rejects.toMatchObject({ exitCode: 2 });
    const target = file('victim.txt', 'precious\n');
    const link = join(dir, 'out-link.json');
    symlinkSync(target, link);
    await expect(writeTextAtomic(link, 'x')).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('is a symlink') });
    const dangling = join(dir, 'dangling.json');
    symlinkSync(join(dir, 'nowhere', 'x.json'), dangling);
    await expect(writeArtifact(dangling, counter, { schemaVersion: '1.0', n: 1 })).rejects.toMatchObject({ exitCode: 2 });
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });
});

describe('malformed JSON ends fast with exit 2', () => {
  it(`nesting deeper than ${MAX_JSON_DEPTH} (100k levels) names the file`, async () => {
    const p = file('deep.json', '['.repeat(100_000) + ']'.repeat(100_000));
    await expect(readArtifact(p, counter)).rejects.toMatchObject({ exitCode: 2, file: p, message: `is nested deeper than ${MAX_JSON_DEPTH} levels` });
  });

  it('1e999 is refused, not rewritten as null', async () => {
    const p = file('inf.json', '{"schemaVersion":"1.0","n":1e999}');
    await expect(readArtifact(p, counter)).rejects.toMatchObject({ exitCode: 2, field: 'n', message: expect.stringContaining('too large') });
  });
});

describe('leftovers', () => {
  it('a temp file of a dead writer is removed by the next writer of that file', async () => {
    const p = join(dir, 'left.json');
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    const temp = join(dir, `.left.json${TEMP_MARK}${dead.pid}-abcd`);
    writeFileSync(temp, '{"torn":');
    await writeArtifact(p, counter, { schemaVersion: '1.0', n: 2 });
    expect(readdirSync(dir).filter((n) => n.includes('left.json'))).toEqual(['left.json']);
  });
});

describe('withFileLock', () => {
  it('locks the real path: a symlink and its target share one lock', async () => {
    const real = file('shared.json', '{"schemaVersion":"1.0","n":0}');
    const alias = join(dir, 'alias.json');
    symlinkSync(real, alias);
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        withFileLock(i % 2 ? real : alias, async () => {
          const { n } = readArtifactSync(real, counter);
          await new Promise((r) => setTimeout(r, 1));
          await writeArtifact(real, counter, { schemaVersion: '1.0', n: n + 1 });
        }),
      ),
    );
    expect(readArtifactSync(real, counter).n).toBe(16);
    expect(existsSync(`${real}.lock`)).toBe(false);
  });

  it.each([
    ['a zero-byte file', (l: string) => writeFileSync(l, '')],
    ['a dangling symlink', (l: string) => symlinkSync(join(dir, 'no-such-lock'), l)],
    ['an empty directory with a future mtime', (l: string) => (mkdirSync(l), utimesSync(l, new Date(Date.now() + 3600e3), new Date(Date.now() + 3600e3)))],
    ['a dead holder', (l: string) => (mkdirSync(l), writeFileSync(join(l, 'owner-999999-abc'), ''))],
  ])('a stale lock that is %s is reclaimed at once', async (_what, make) => {
    const p = join(dir, `stale-${Math.random().toString(16).slice(2)}.json`);
    make(`${p}.lock`);
    const started = Date.now();
    expect(await withFileLock(p, async () => 'ran')).toBe('ran');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(existsSync(`${p}.lock`)).toBe(false);
  });

  it('a lock directory okstra did not make is reported once with the fix', async () => {
    const p = join(dir, 'foreign.json');
    mkdirSync(`${p}.lock`);
    writeFileSync(join(`${p}.lock`, 'somebody-else'), 'x');
    await expect(withFileLock(p, async () => 'ran')).rejects.toMatchObject({
      exitCode: 2,
      hint: `if no okstra command is running on this file, remove it: rm -r '${p}.lock'`,
    });
  });

  it('a holder whose lock was taken over fails with exit 2 and its write does not land', async () => {
    const p = file('taken.json', '{"schemaVersion":"1.0","n":0}');
    await expect(
      withFileLock(p, async () => {
        // What a second process does once this holder has been paused past the stale limit.
        const [owner] = readdirSync(`${p}.lock`);
        rmSync(join(`${p}.lock`, owner as string));
        writeFileSync(join(`${p}.lock`, 'owner-1-feed'), '');
        await writeArtifact(p, counter, { schemaVersion: '1.0', n: 99 });
      }),
    ).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('was taken over') });
    expect(readArtifactSync(p, counter).n).toBe(0);
  });
});
