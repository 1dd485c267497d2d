// What a warm daemon must never carry from one caller to another (docs/release.md
// "The run-audit daemon"), through the built bin: the options, libraries and clock
// node started with, code edited in place under it, and commands other than run-audit
// sent on its socket by hand. Each served answer is compared, byte for byte, with the
// bin alone (OKSTRA_DAEMON=0) on the same input; every daemon started here is stopped.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, makeStubGh, runBin } from '../test-support/bin.js';
import { daemonPids, makeRuntime, socketDir, socketsIn, waitFor } from '../test-support/daemon.js';

const SAMPLE = resolve(new URL('../../../../examples/sample-project', import.meta.url).pathname);
const scratch = mkdtempSync(join(tmpdir(), 'okstra-daemon-iso-'));
const sample = join(scratch, 'sample-project');
cpSync(SAMPLE, sample, { recursive: true });

const runtimes: string[] = [];
afterAll(() => {
  for (const rt of runtimes) for (const pid of daemonPids(rt)) process.kill(pid, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** A private runtime directory, its daemons killed after the suite. */
function runtime(): string {
  const rt = makeRuntime(scratch);
  runtimes.push(rt);
  return rt;
}
const base = (rt: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ XDG_RUNTIME_DIR: rt, PATH: process.env.PATH ?? '', ...extra });
const ARGS = ['run-audit', '--project-root', sample];
const audit = (e: NodeJS.ProcessEnv, bin = BIN) => runBin(ARGS, { env: e, bin, timeoutMs: 60_000 });

/** A module for `NODE_OPTIONS=--import`: the process's clock stands at 2020-01-01 (what a test harness or libfaketime does). */
const clock = join(scratch, 'clock-2020.mjs');
writeFileSync(
  clock,
  `const D = Date, at = () => D.UTC(2020, 0, 1);
globalThis.Date = class extends D { constructor(...a) { super(...(a.length ? a : [at()])); } static now() { return at(); } };\n`,
);
const FAKED = { NODE_OPTIONS: `--import=${pathToFileURL(clock).href}` };

/** The C library this process runs with: preloading it changes nothing but makes the call one with a preload. */
const libc = readFileSync('/proc/self/maps', 'utf8').match(/\s(\/\S*\/libc(?:\.so\.6|-[\d.]+\.so))$/m)?.[1];
const faketime = spawnSync('faketime', ['--version']).status === 0;

describe('a run-audit daemon answers only a caller that would answer the same itself', () => {
  const alone = audit({ OKSTRA_DAEMON: '0' });
  const fakedAlone = audit({ OKSTRA_DAEMON: '0', ...FAKED });

  it('a call with NODE_OPTIONS (an --import that sets the clock to 2020) is answered in-process, starts no daemon, and no daemon answers it', () => {
    // The 2020 clock sees the sample's runs start in the future.
    expect(fakedAlone.stdout).not.toBe(alone.stdout);
    const rt = runtime();
    expect(audit(base(rt, FAKED))).toEqual(fakedAlone);
    spawnSync('sleep', ['1']);
    expect(daemonPids(rt)).toEqual([]);
    audit(base(rt));
    expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
    for (let i = 0; i < 2; i++) expect(audit(base(rt, FAKED))).toEqual(fakedAlone);
    expect(audit(base(rt))).toEqual(alone);
  });

  it.runIf(libc)('a caller with a preloaded library (LD_PRELOAD) is answered in-process and starts no daemon', () => {
    const rt = runtime();
    for (let i = 0; i < 2; i++) expect(audit(base(rt, { LD_PRELOAD: libc! }))).toEqual(alone);
    spawnSync('sleep', ['1']);
    expect(socketsIn(rt)).toEqual([]);
    expect(daemonPids(rt)).toEqual([]);
  });

  it.runIf(faketime)('under faketime, a call is judged by its own clock, with a daemon up or not', () => {
    const rt = runtime();
    const underFaketime = (extra: NodeJS.ProcessEnv) =>
      // -f without '@' stands the clock still, so the two calls read the same time; node's timers keep the real monotonic clock.
      spawnSync('faketime', ['-f', '2020-01-01 00:00:00', process.execPath, BIN, ...ARGS], {
        env: base(rt, { DONT_FAKE_MONOTONIC: '1', ...extra }),
        encoding: 'utf8',
      });
    const expected = underFaketime({ OKSTRA_DAEMON: '0' });
    expect(expected.stdout).not.toBe(alone.stdout);
    audit(base(rt));
    expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
    expect(underFaketime({}).stdout).toBe(expected.stdout);
    expect(audit(base(rt))).toEqual(alone);
  });

  it('a chunk edited in place (same name and size, mtime put back) is never answered by the daemon that loaded the old one', () => {
    const app = resolve(BIN, '..', '..');
    const copy = join(scratch, 'edited-app');
    mkdirSync(copy);
    cpSync(join(app, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(app, 'package.json'), join(copy, 'package.json'));
    const bin = join(copy, 'dist', 'bin.js');
    const rt = runtime();
    expect(audit(base(rt), bin)).toEqual(alone);
    expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
    expect(audit(base(rt), bin)).toEqual(alone);
    const chunk = join(
      copy,
      'dist',
      readdirSync(join(copy, 'dist')).find((n) => /^run-audit-\w+\.js$/.test(n))!,
    );
    const before = statSync(chunk);
    const text = readFileSync(chunk, 'utf8');
    expect(text).toContain(' scanned, ');
    writeFileSync(chunk, text.replace(' scanned, ', ' SCANNED, '));
    utimesSync(chunk, before.atime, before.mtime);
    const edited = audit(base(rt, { OKSTRA_DAEMON: '0' }), bin);
    expect(edited.stdout).toContain(' SCANNED, ');
    for (let i = 0; i < 3; i++) expect(audit(base(rt), bin)).toEqual(edited);
  });

  it('a project root named through this process (/dev/fd/3, /proc/self/fd/3) is audited in-process, as the bin alone audits it', () => {
    const rt = runtime();
    audit(base(rt));
    expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
    const viaFd = (root: string, extra: NodeJS.ProcessEnv) => {
      const script = `exec 3<'${sample}' && exec '${process.execPath}' '${BIN}' run-audit --project-root ${root}`;
      const r = spawnSync('sh', ['-c', script], { env: base(rt, extra), encoding: 'utf8' });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    for (const root of ['/dev/fd/3', '/proc/self/fd/3']) {
      const alone = viaFd(root, { OKSTRA_DAEMON: '0' });
      expect(alone.code).toBe(1);
      expect(viaFd(root, {})).toEqual(alone);
    }
  });

  it('a working directory that was removed: the call prints what the bin alone prints', () => {
    const rt = runtime();
    audit(base(rt));
    expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
    const inRemoved = (extra: NodeJS.ProcessEnv) => {
      const gone = mkdtempSync(join(scratch, 'gone-'));
      const script = `cd '${gone}' && rmdir '${gone}' && exec '${process.execPath}' '${BIN}' ${ARGS.map((a) => `'${a}'`).join(' ')}`;
      const r = spawnSync('sh', ['-c', script], { env: base(rt, extra), encoding: 'utf8' });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    expect(inRemoved({})).toEqual(inRemoved({ OKSTRA_DAEMON: '0' }));
  });
});

/** Send `request` (one line) to the socket at `path`; resolves to every line the daemon sent before it closed. */
function ask(path: string, request: string): Promise<string[]> {
  return new Promise((ok) => {
    let got = '';
    const s = connect(path, () => s.write(request + '\n'));
    s.setEncoding('utf8');
    s.on('data', (d: string) => (got += d));
    s.on('error', () => undefined);
    s.on('close', () => ok(got.split('\n').filter(Boolean)));
  });
}

describe('the run-audit daemon serves run-audit and nothing else', () => {
  it('a request for another command, or not a request, sent on its socket by hand: no answer, nothing run, and the daemon still serves', async () => {
    const rt = runtime();
    const e = base(rt);
    const alone = audit({ OKSTRA_DAEMON: '0' });
    audit(e);
    expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
    const path = join(socketDir(rt), socketsIn(rt)[0]!);
    const gh = makeStubGh();
    const env = { PATH: `${gh.dir}:${process.env.PATH ?? ''}`, HOME: scratch };
    const requests = [
      { argv: ['error-issue', 'plan', '--project-root', sample, '--output', '-'], cwd: scratch, env },
      { argv: ['worker-audit-check', '--help'], cwd: scratch, env },
      { argv: 'run-audit', cwd: scratch, env },
      { argv: ['run-audit'], cwd: 'relative', env },
      { argv: ['run-audit'], cwd: scratch, env: { PATH: 1 } },
    ];
    for (const request of requests) {
      const lines = await ask(path, JSON.stringify(request));
      expect(lines.filter((l) => l.includes('"done"'))).toEqual([]);
    }
    expect(gh.calls()).toEqual([]);
    expect(daemonPids(rt)).toHaveLength(1);
    expect(audit(e)).toEqual(alone);
  });

  it('a daemon started on a socket path its own key does not name exits at once, listening nowhere', async () => {
    const rt = runtime();
    mkdirSync(socketDir(rt), { recursive: true, mode: 0o700 });
    const wrong = join(socketDir(rt), 'okstra-run-audit-0000000000000000.sock');
    const daemon = spawn(process.execPath, [join(BIN, '..', 'daemon.js'), wrong], { env: base(rt), stdio: 'ignore' });
    const code = await new Promise<number | null>((ok) => {
      const timer = setTimeout(() => (daemon.kill('SIGKILL'), ok(null)), 10_000);
      daemon.on('exit', (c) => (clearTimeout(timer), ok(c)));
    });
    expect(code).toBe(0);
    expect(existsSync(wrong)).toBe(false);
  });
});
