import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Where a bin's daemon listens (docs/release.md "The run-audit daemon"): a Unix
 * socket in a directory only this user can enter, named after the bin and a
 * hash of everything that decides which code answers and what it may see —
 * the node binary and version, the bin's {@link distFingerprint} and the
 * caller's {@link callerIdentity} — so a rebuilt or upgraded bin never
 * reaches an old daemon, and a caller with other rights or another view of
 * the files never gets an answer read with the daemon's. A relative
 * `XDG_RUNTIME_DIR` is ignored, as the XDG base directory spec says.
 * @returns the socket path, or null when no safe directory can be had (the
 *   caller then runs in-process): the directory is not this user's, is group-
 *   or world-accessible, is a symlink, or the path is too long for a socket.
 */
export function daemonSocketPath(name: string, binPath: string, env: NodeJS.ProcessEnv): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  const runtime = env['XDG_RUNTIME_DIR'];
  const dir = join(runtime && isAbsolute(runtime) ? runtime : tmpdir(), `okstra-daemon-${uid}`);
  try {
    let st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      st = lstatSync(dir);
    }
    if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) return null;
    const key = fnv1a(`${process.execPath}\0${process.version}\0${distFingerprint(dirname(binPath))}\0${callerIdentity()}`);
    const path = join(dir, `${name}-${key}.sock`);
    // sockaddr_un holds 108 bytes with the terminating NUL.
    return Buffer.byteLength(path) < 108 ? path : null;
  } catch {
    return null;
  }
}

/**
 * What decides which files a process can read and which files a path names:
 * its user and group ids, supplementary groups and capabilities (Linux
 * /proc/self/status), its mount namespace and its root directory (a chroot's
 * `/` is another inode). A daemon reads with its own, so only a caller with
 * the same identity may share it.
 * @throws when `/` cannot be stat-ed.
 */
export function callerIdentity(): string {
  const root = statSync('/');
  let proc = '';
  try {
    proc = readFileSync('/proc/self/status', 'latin1')
      .split('\n')
      .filter((l) => /^(Uid|Gid|Groups|Cap(Inh|Prm|Eff|Bnd|Amb)):/.test(l))
      .join('\n');
    proc += `\n${readlinkSync('/proc/self/ns/mnt')}`;
  } catch {
    // No procfs (macOS): the ids and groups node gives.
    proc = `${process.getuid?.()}:${process.getgid?.()}:${process.getgroups?.().join(',')}`;
  }
  return `${proc}\n${root.dev}:${root.ino}`;
}

/** The entries whose names carry no content hash; every other file of a bundle's dist is named `<name>-<hash>.js`. */
const FIXED_ENTRIES = ['bin.js', 'main.js', 'daemon.js', 'audit-worker.js'];

/**
 * What identifies a built bin's code: its dist folder's path, every file name
 * in it (chunk names carry their content hashes) and the text of the entries
 * whose names do not. A daemon compares it before each request and stops when
 * it changed (an upgrade or rebuild in place: its lazily loaded chunks may be gone).
 * @throws when the folder cannot be read.
 */
export function distFingerprint(distDir: string): string {
  const names = readdirSync(distDir).sort();
  const fixed = FIXED_ENTRIES.filter((n) => names.includes(n)).map((n) => readFileSync(join(distDir, n), 'latin1'));
  return `${distDir}\0${names.join('/')}\0${fixed.join('\0')}`;
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
