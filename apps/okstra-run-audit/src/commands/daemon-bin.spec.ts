// The run-audit daemon (libs/cli-kit daemon/, docs/release.md "The run-audit daemon")
// through the built bin: a served call prints exactly what the bin prints in its own
// process and reads no artifact itself; a dead, stale or refused daemon never costs
// the answer; the daemon goes away when idle. Each test has its own private socket
// directory (XDG_RUNTIME_DIR), and every daemon started here is stopped afterwards.
import { makeTempProject } from '@okstra/core/test-support';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runBin, runBinAsync } from '../test-support/bin.js';
import { daemonPids, makeRuntime, socketsIn, waitFor } from '../test-support/daemon.js';

const SAMPLE = resolve(new URL('../../../../examples/sample-project', import.meta.url).pathname);
const scratch = mkdtempSync(join(tmpdir(), 'okstra-daemon-spec-'));
const sample = join(scratch, 'sample-project');
cpSync(SAMPLE, sample, { recursive: true });
const uid = process.getuid!();

const runtime = () => makeRuntime(scratch);

const runtimes: string[] = [];
afterAll(() => {
  for (const rt of runtimes) for (const pid of daemonPids(rt)) process.kill(pid, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

function env(rt: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  runtimes.push(rt);
  return { XDG_RUNTIME_DIR: rt, PATH: process.env.PATH ?? '', ...extra };
}
const audit = (e: NodeJS.ProcessEnv, args: string[] = ['--project-root', sample, '--json'], cwd?: string) =>
  runBin(['run-audit', ...args], { env: e, cwd, timeoutMs: 60_000 });

/** A runtime directory whose daemon is up (started by one call, which answered in-process). */
function withDaemon(extra: NodeJS.ProcessEnv = {}): { rt: string; e: NodeJS.ProcessEnv } {
  const rt = runtime();
  const e = env(rt, extra);
  audit(e);
  // Up means listening: a daemon killed before it binds leaves no socket file.
  expect(waitFor(() => daemonPids(rt).length === 1 && socketsIn(rt).length === 1)).toBe(true);
  return { rt, e };
}

describe('okstra-run-audit served by its daemon', () => {
  const alone = audit({ OKSTRA_DAEMON: '0' });
  const aloneText = audit({ OKSTRA_DAEMON: '0' }, ['--project-root', sample]);

  it('the first call starts a daemon and answers in-process; later calls are served, byte for byte the same', () => {
    const rt = runtime();
    const e = env(rt);
    expect(audit(e)).toEqual(alone);
    expect(waitFor(() => socketsIn(rt).length === 1 && daemonPids(rt).length === 1)).toBe(true);
    for (let i = 0; i < 3; i++) expect(audit(e)).toEqual(alone);
    expect(audit(e, ['--project-root', sample])).toEqual(aloneText);
    expect(alone.code).toBe(1);
    // Bad input is refused the same way: exit 2, one line.
    const missing = audit(e, ['--project-root', join(scratch, 'nowhere')]);
    expect(missing).toEqual(audit({ OKSTRA_DAEMON: '0' }, ['--project-root', join(scratch, 'nowhere')]));
    expect(missing.code).toBe(2);
  });

  it('a served call reads no artifact itself (strace of the client), and the cwd it was called from is the one audited', () => {
    const { e } = withDaemon();
    audit(e);
    const log = join(scratch, 'strace.log');
    const r = spawnSync('strace', ['-f', '-e', 'trace=openat', '-o', log, process.execPath, BIN, 'run-audit', '--json'], {
      cwd: sample,
      env: e,
      encoding: 'utf8',
    });
    expect(r.stdout).toBe(alone.stdout);
    expect(readFileSync(log, 'utf8')).not.toContain('.okstra/tasks');
    expect(JSON.parse(r.stdout).projectRoot).toBe(sample);
  });

  it('a stale socket file (its daemon was killed) costs nothing: the answer comes in-process and a new daemon takes the path', () => {
    const { rt, e } = withDaemon();
    for (const pid of daemonPids(rt)) process.kill(pid, 'SIGKILL');
    expect(waitFor(() => daemonPids(rt).length === 0)).toBe(true);
    expect(socketsIn(rt)).toHaveLength(1); // SIGKILL leaves the socket file
    expect(audit(e)).toEqual(alone);
    expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
    expect(audit(e)).toEqual(alone);
  });

  it('a daemon killed while it serves a large audit: the client still prints the whole report', async () => {
    const big = makeTempProject('okstra-daemon-big-');
    try {
      cpSync(join(sample, '.okstra'), join(big.root, '.okstra'), { recursive: true });
      const tasks = join(big.root, '.okstra/tasks');
      const group = readdirSync(tasks)[0]!;
      const task = readdirSync(join(tasks, group))[0]!;
      for (let i = 0; i < 120; i++) cpSync(join(tasks, group, task), join(tasks, group, `${task}-copy-${i}`), { recursive: true });
      const args = ['--project-root', big.root, '--json'];
      const expected = audit({ OKSTRA_DAEMON: '0' }, args);
      const rt = runtime();
      const e = env(rt);
      audit(e, args);
      expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
      const pending = runBinAsync(['run-audit', ...args], { env: e, timeoutMs: 60_000 });
      spawnSync('sleep', ['0.3']);
      for (const pid of daemonPids(rt)) process.kill(pid, 'SIGKILL');
      expect(await pending).toEqual(expected);
    } finally {
      big.cleanup();
    }
  });

  it('a stopped daemon (SIGSTOP) never says accepted: after 1 s the client answers in-process', async () => {
    const { rt, e } = withDaemon();
    const [pid] = daemonPids(rt);
    process.kill(pid!, 'SIGSTOP');
    try {
      // The stopped daemon's listening socket still takes the connection (the kernel's backlog); nothing answers.
      expect(await runBinAsync(['run-audit', '--project-root', sample, '--json'], { env: e, timeoutMs: 40_000 })).toEqual(alone);
    } finally {
      process.kill(pid!, 'SIGCONT');
    }
  }, 60_000);

  it("whatever a server on the socket answers that is not a daemon's answer, the client answers in-process", async () => {
    const { rt, e } = withDaemon();
    for (const pid of daemonPids(rt)) process.kill(pid, 'SIGTERM');
    expect(waitFor(() => daemonPids(rt).length === 0 && socketsIn(rt).length === 0)).toBe(true);
    // The path the bin connects to: its daemon's, found by starting one and stopping it.
    audit(e);
    expect(waitFor(() => socketsIn(rt).length === 1 && daemonPids(rt).length === 1)).toBe(true);
    const path = join(rt, `okstra-daemon-${uid}`, socketsIn(rt)[0]!);
    for (const pid of daemonPids(rt)) process.kill(pid, 'SIGTERM');
    expect(waitFor(() => daemonPids(rt).length === 0 && !existsSync(path))).toBe(true);
    const replies = [
      'junk\n',
      '{"t":"accepted"}\nnot json\n',
      '{"t":"accepted"}\n{"t":"done","code":0}\n',
      '{"t":"accepted"}\n{"t":"done","code":999,"stdout":"","stderr":""}\n',
      '{"t":"accepted"}\n{"t":"done","code":0,"stdout":{"x":1},"stderr":""}\n',
      '{"t":"accepted"}\n{"t":"done","code":0,"std',
      'null\n',
    ];
    // Last: a server that says accepted and then nothing (hung): the client waits out 15 s of silence, then answers itself.
    replies.push('HANG {"t":"accepted"}\n');
    for (const reply of replies) {
      const hang = reply.startsWith('HANG ');
      const send = `c.${hang ? 'write' : 'end'}(${JSON.stringify(hang ? reply.slice(5) : reply)})`;
      const code = `const s=require('net').createServer(c=>{c.on('error',()=>{});${send}});s.listen(${JSON.stringify(path)},()=>process.stdout.write('up'));setTimeout(()=>process.exit(0),40000)`;
      const server = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
      await new Promise<void>((ok) => server.stdout!.once('data', () => ok()));
      try {
        expect(await runBinAsync(['run-audit', '--project-root', sample, '--json'], { env: e, timeoutMs: 40_000 })).toEqual(alone);
      } finally {
        server.kill('SIGKILL');
        await new Promise((ok) => server.once('close', ok));
        rmSync(path, { force: true });
      }
    }
  }, 120_000);

  it('an error with no output, stdout to /dev/full: the served call prints only the error, as the bin alone does', () => {
    const { e } = withDaemon();
    const full = (extra: NodeJS.ProcessEnv) => {
      const fd = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [BIN, 'run-audit', '--bogus'], { env: { ...e, ...extra }, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
        return { code: r.status, stderr: r.stderr };
      } finally {
        closeSync(fd);
      }
    };
    const alone = full({ OKSTRA_DAEMON: '0' });
    expect(alone).toEqual({ code: 2, stderr: "okstra-run-audit: unknown option '--bogus'\n" });
    expect(full({})).toEqual(alone);
  });

  it("a caller with fewer rights never gets an answer read with the daemon's: an unreadable file stays unreadable", () => {
    const own = join(scratch, 'rights');
    cpSync(sample, own, { recursive: true });
    const state = readdirSync(join(own, '.okstra/tasks'), { recursive: true, withFileTypes: true }).find(
      (d) => d.isFile() && d.name.startsWith('team-state-'),
    )!;
    chmodSync(join(state.parentPath, state.name), 0o000);
    const { e } = withDaemon();
    audit(e, ['--project-root', own, '--json']);
    const limited = (extra: NodeJS.ProcessEnv) =>
      spawnSync('setpriv', ['--inh-caps=-all', '--bounding-set=-all', process.execPath, BIN, 'run-audit', '--project-root', own, '--json'], {
        env: { ...e, ...extra },
        encoding: 'utf8',
      });
    const alone = limited({ OKSTRA_DAEMON: '0' });
    for (let i = 0; i < 3; i++) expect(limited({}).stdout).toBe(alone.stdout);
  });

  it.runIf(uid === 0)("a caller in another mount namespace never gets the daemon's view of the files", () => {
    const alt = join(scratch, 'alt-tasks');
    mkdirSync(alt);
    const { e } = withDaemon();
    const inNs = (extra: NodeJS.ProcessEnv) =>
      spawnSync(
        'unshare',
        [
          '-m',
          'sh',
          '-c',
          `mount --bind '${alt}' '${sample}/.okstra/tasks' && exec '${process.execPath}' '${BIN}' run-audit --project-root '${sample}' --json`,
        ],
        {
          env: { ...e, ...extra },
          encoding: 'utf8',
        },
      );
    const alone = inNs({ OKSTRA_DAEMON: '0' });
    expect(JSON.parse(alone.stdout).runsScanned).toBe(0);
    for (let i = 0; i < 3; i++) expect(inNs({}).stdout).toBe(alone.stdout);
  });

  it('a relative XDG_RUNTIME_DIR is ignored: nothing is made in the working directory', () => {
    const cwd = mkdtempSync(join(scratch, 'cwd-'));
    const tmp = runtime();
    const e = { ...env(tmp), XDG_RUNTIME_DIR: 'rt', TMPDIR: tmp };
    expect(audit(e, ['--project-root', sample, '--json'], cwd)).toEqual(alone);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an idle daemon exits and removes its socket; a SIGTERM does the same', () => {
    const { rt } = withDaemon({ OKSTRA_DAEMON_IDLE_MS: '1500' });
    expect(waitFor(() => daemonPids(rt).length === 0 && socketsIn(rt).length === 0)).toBe(true);
    const { rt: rt2 } = withDaemon();
    for (const pid of daemonPids(rt2)) process.kill(pid, 'SIGTERM');
    expect(waitFor(() => daemonPids(rt2).length === 0 && socketsIn(rt2).length === 0)).toBe(true);
  });

  it('no daemon when OKSTRA_DAEMON=0, for other commands, or when the socket directory is not private or lies in one others may write', () => {
    const rt = runtime();
    audit(env(rt, { OKSTRA_DAEMON: '0' }));
    runBin(['--version'], { env: env(rt) });
    runBin(['worker-audit-check', '--help'], { env: env(rt) });
    spawnSync('sleep', ['1']);
    expect(socketsIn(rt)).toEqual([]);
    expect(daemonPids(rt)).toEqual([]);
    const open = runtime();
    mkdirSync(join(open, `okstra-daemon-${uid}`), { mode: 0o777 });
    chmodSync(join(open, `okstra-daemon-${uid}`), 0o777);
    expect(audit(env(open))).toEqual(alone);
    spawnSync('sleep', ['1']);
    expect(socketsIn(open)).toEqual([]);
    expect(daemonPids(open)).toEqual([]);
    // A runtime directory others may write without the sticky bit: another user could swap the private one out of it.
    const shared = runtime();
    chmodSync(shared, 0o777);
    expect(audit(env(shared))).toEqual(alone);
    spawnSync('sleep', ['1']);
    expect(socketsIn(shared)).toEqual([]);
    expect(daemonPids(shared)).toEqual([]);
    chmodSync(shared, 0o1777);
    expect(audit(env(shared))).toEqual(alone);
    expect(waitFor(() => daemonPids(shared).length === 1)).toBe(true);
  });

  it('a rebuilt bin never reaches the old daemon: its socket is another, and the call is answered in-process until its own daemon is up', () => {
    const app = resolve(BIN, '..', '..');
    const copy = join(scratch, 'bin-copy');
    cpSync(app, copy, { recursive: true, filter: (p) => p !== join(app, 'src') && !p.startsWith(join(app, 'src') + '/') });
    const bin = join(copy, 'dist', 'bin.js');
    const rt = runtime();
    const e = env(rt);
    const run = () => runBin(['run-audit', '--project-root', sample, '--json'], { env: e, bin, timeoutMs: 60_000 });
    expect(run()).toEqual(alone);
    expect(waitFor(() => daemonPids(rt).length === 1)).toBe(true);
    const [old] = daemonPids(rt);
    // A new chunk: what a rebuild or an upgrade in place leaves.
    execFileSync('cp', [join(copy, 'dist', 'main.js'), join(copy, 'dist', 'extra-ABCDEFGH.js')]);
    expect(run()).toEqual(alone);
    expect(waitFor(() => daemonPids(rt).length === 2 && socketsIn(rt).length === 2)).toBe(true);
    expect(run()).toEqual(alone);
    expect(daemonPids(rt)).toContain(old);
  });
});
