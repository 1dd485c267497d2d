// A nearly full disk for one try of the disk-full matrix: a private tmpfs mount
// (size and inode count both bounded) that is then filled to `free` bytes or
// inodes, or — where mounting is not permitted — a plain directory and the
// file-size limit (`ulimit -f`, SIGXFSZ ignored so the write fails with EFBIG
// instead of killing the process). Never a silent skip: `mode` says which ran.
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, fstatSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How a try squeezes the disk: bytes or inodes left free (tmpfs), or a file-size limit in 512-byte blocks. */
export type Squeeze = { kind: 'bytes'; free: number } | { kind: 'inodes'; free: number } | { kind: 'fsize'; blocks: number };

/** Whether this machine lets the suite mount a tmpfs (root, no container restriction); probed once. */
let mountable: boolean | undefined;
export function canMountTmpfs(): boolean {
  if (mountable === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'okstra-fi-probe-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,nr_inodes=16', 'tmpfs', dir], { stdio: 'ignore' });
      execFileSync('umount', [dir], { stdio: 'ignore' });
      mountable = true;
    } catch {
      mountable = false;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return mountable;
}

/** One disk: `root` to copy a scenario into, then `squeeze` it, `release` the space, `dispose` at the end. */
export class TinyDisk {
  readonly root: string;
  readonly mounted: boolean;
  private readonly fill: string;
  private limitBlocks: number | undefined;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), 'okstra-fi-disk-'));
    this.mounted = canMountTmpfs();
    if (this.mounted) execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,nr_inodes=4000', 'tmpfs', this.root], { stdio: 'ignore' });
    this.fill = join(this.root, '.fill');
  }

  /** Leave exactly `s.free` bytes or inodes (tmpfs counts 4 KiB pages), or set the file-size limit for the next runs. */
  squeeze(s: Squeeze): void {
    if (s.kind === 'fsize') {
      this.limitBlocks = s.blocks;
      return;
    }
    if (!this.mounted) throw new Error('bytes/inodes squeezes need a tmpfs');
    mkdirSync(this.fill);
    if (s.kind === 'inodes') {
      const made: string[] = [];
      for (let i = 0; ; i++) {
        const p = join(this.fill, String(i));
        try {
          writeFileSync(p, '');
        } catch {
          break;
        }
        made.push(p);
      }
      for (const p of made.slice(made.length - s.free)) unlinkSync(p);
      return;
    }
    const fd = openSync(join(this.fill, 'bytes'), 'w');
    const chunk = Buffer.alloc(64 * 1024);
    try {
      for (;;) writeSync(fd, chunk);
    } catch {
      // full at 64 KiB granularity: fill the last pages one at a time
    }
    try {
      for (;;) writeSync(fd, chunk, 0, 4096);
    } catch {
      // full
    }
    ftruncateSync(fd, Math.max(0, fstatSync(fd).size - s.free));
    closeSync(fd);
  }

  /** Free the space again (and drop the file-size limit): the second run must land. */
  release(): void {
    this.limitBlocks = undefined;
    rmSync(this.fill, { recursive: true, force: true });
  }

  /** The command line for `argv` under the current file-size limit (none: as is). */
  wrap(argv: string[]): string[] {
    if (this.limitBlocks === undefined) return argv;
    return ['/bin/sh', '-c', `trap '' XFSZ; ulimit -f ${this.limitBlocks}; exec "$0" "$@"`, ...argv];
  }

  dispose(): void {
    if (this.mounted) {
      try {
        execFileSync('umount', [this.root], { stdio: 'ignore' });
      } catch {
        execFileSync('umount', ['-l', this.root], { stdio: 'ignore' });
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}
