import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Where a bin's daemon listens (docs/release.md "The run-audit daemon"): a Unix
 * socket in a directory only this user can enter, named after the bin and a
 * hash of everything that decides which code answers and what it may see —
 * the node binary and version, the bin's {@link distFingerprint}, the
 * caller's {@link callerIdentity} and its {@link startupEnvironment} — so a
 * rebuilt, upgraded or edited bin never reaches an old daemon, a caller with
 * other rights or another view of the files never gets an answer read with
 * the daemon's, and a node started with other options, locale or libraries is
 * another daemon. A relative `XDG_RUNTIME_DIR` is ignored, as the XDG base
 * directory spec says.
 * @returns the socket path, or null (the caller then runs in-process): the
 *   call needs its own process ({@link needsOwnProcess}), or no safe
 *   directory can be had — it is not this user's, is group- or
 *   world-accessible, is a symlink, lies in a directory another user could
 *   swap it out of ({@link safeParent}), or the path is too long for a socket.
 */
export function daemonSocketPath(name: string, binPath: string, env: NodeJS.ProcessEnv): string | null {
  const uid = process.getuid?.();
  if (uid === undefined || needsOwnProcess(env)) return null;
  const runtime = env['XDG_RUNTIME_DIR'];
  const parent = runtime && isAbsolute(runtime) ? runtime : tmpdir();
  const dir = join(parent, `okstra-daemon-${uid}`);
  try {
    if (!safeParent(parent, uid)) return null;
    let st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      st = lstatSync(dir);
    }
    if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) return null;
    const key = fnv1a(`${process.execPath}\0${process.version}\0${distFingerprint(dirname(binPath))}\0${callerIdentity()}\0${startupEnvironment(env)}`);
    const path = join(dir, `${name}-${key}.sock`);
    // sockaddr_un holds 108 bytes with the terminating NUL.
    return Buffer.byteLength(path) < 108 ? path : null;
  } catch {
    return null;
  }
}

/**
 * True when no other user can rename or replace entries of `parent` (the
 * runtime or temp directory): it is this user's or root's, and writable by
 * group or others only with the sticky bit (`/tmp`). Otherwise another user
 * could swap the private directory, between the check and the connect, for
 * one holding a socket of theirs, which would answer anything.
 */
function safeParent(parent: string, uid: number): boolean {
  const st = statSync(parent);
  return (st.uid === uid || st.uid === 0) && ((st.mode & 0o022) === 0 || (st.mode & 0o1000) !== 0);
}

/**
 * True when this call must run in its own process, because code or a library
 * is loaded into it when it starts: `LD_PRELOAD`, `LD_AUDIT`,
 * `DYLD_INSERT_LIBRARIES`, /etc/ld.so.preload, `NODE_OPTIONS` (`--import`,
 * `--require`, `--inspect`, `--trace-*`…), node options before the bin
 * (`process.execArgv`), or `NODE_V8_COVERAGE`. Such code runs once per
 * process: a hook that sets the clock (libfaketime, a test's fake `Date`)
 * starts it when the process does, so a daemon started earlier reads another
 * time whatever the key, and a trace or coverage would go to the daemon's
 * output, not this call's.
 */
export function needsOwnProcess(env: NodeJS.ProcessEnv): boolean {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  return (
    ['LD_PRELOAD', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', 'NODE_V8_COVERAGE'].some(set) ||
    process.execArgv.length > 0 ||
    existsSync('/etc/ld.so.preload')
  );
}

/** Variables read once, when a process starts (the dynamic loader, libc's allocator and locale, node, libuv, OpenSSL), not per command. */
const STARTUP_VARIABLE = /^(LD_|DYLD_|NODE_|UV_|LC_|MALLOC_|GLIBC_|OPENSSL_)|^(LANG|LANGUAGE|LOCPATH|TZDIR|SSL_CERT_FILE|SSL_CERT_DIR)$/;

/**
 * The caller's variables that act when a process starts ({@link STARTUP_VARIABLE}:
 * `NODE_OPTIONS`, `LANG`, `LD_LIBRARY_PATH`, …), sorted `NAME=value` lines.
 * The daemon takes each request's environment as process.env, but these
 * were read when it started (a `--require`d hook, ICU's default locale), so
 * only a caller with the same values may share it.
 */
export function startupEnvironment(env: NodeJS.ProcessEnv): string {
  return Object.keys(env)
    .filter((k) => STARTUP_VARIABLE.test(k))
    .sort()
    .map((k) => `${k}=${env[k]}`)
    .join('\n');
}

/**
 * What decides which files a process can read, which files a path names and
 * how far it may go: its user and group ids, supplementary groups,
 * capabilities and seccomp/no-new-privileges state (Linux /proc/self/status),
 * its resource limits (/proc/self/limits: open files, memory), its security
 * label (/proc/self/attr/current), its mount namespace and its root
 * directory (a chroot's `/` is another inode). A daemon reads with its own,
 * so only a caller with the same identity may share it.
 * @throws when `/` cannot be stat-ed.
 */
export function callerIdentity(): string {
  const root = statSync('/');
  let proc = '';
  try {
    proc = readFileSync('/proc/self/status', 'latin1')
      .split('\n')
      .filter((l) => /^(Uid|Gid|Groups|Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp|Seccomp_filters):/.test(l))
      .join('\n');
    proc += `\n${readFileSync('/proc/self/limits', 'latin1')}\n${readlinkSync('/proc/self/ns/mnt')}\n${securityLabel()}`;
  } catch {
    // No procfs (macOS): the ids and groups node gives.
    proc = `${process.getuid?.()}:${process.getgid?.()}:${process.getgroups?.().join(',')}`;
  }
  return `${proc}\n${root.dev}:${root.ino}`;
}

/** The LSM label of this process (AppArmor, SELinux, Smack), or '' where there is none. */
function securityLabel(): string {
  try {
    return readFileSync('/proc/self/attr/current', 'latin1');
  } catch {
    return '';
  }
}

/** The entries whose names carry no content hash; every other file of a bundle's dist is named `<name>-<hash>.js`. */
const FIXED_ENTRIES = ['bin.js', 'main.js', 'daemon.js', 'audit-worker.js'];

/**
 * What identifies a built bin's code: its dist folder's path, every file name
 * in it (chunk names carry their content hashes) with its size, inode and
 * change time (a chunk edited in place keeps its name, but no write keeps the
 * ctime: `touch -r` sets only atime and mtime), and the text of the entries
 * whose names carry no hash. A daemon compares it before each request and
 * stops when it changed (an upgrade, rebuild or edit in place: its loaded
 * code is not the files' any more).
 * @throws when the folder cannot be read.
 */
export function distFingerprint(distDir: string): string {
  const names = readdirSync(distDir).sort();
  const files = names.map((n) => {
    const st = statSync(join(distDir, n));
    return `${n}:${st.size}:${st.ino}:${st.ctimeMs}`;
  });
  const fixed = FIXED_ENTRIES.filter((n) => names.includes(n)).map((n) => readFileSync(join(distDir, n), 'latin1'));
  return `${distDir}\0${files.join('/')}\0${fixed.join('\0')}`;
}

/** FNV-1a of `text` in two 32-bit lanes (16 hex digits): a cache key, not a security boundary (the directory is). */
function fnv1a(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
