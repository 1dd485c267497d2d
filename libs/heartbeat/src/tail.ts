import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { InputError } from '@okstra/core';
import { CLOCK_SKEW_ALLOWANCE_S, TAIL_WINDOW_BYTES } from './constants.js';
import { parseHeartbeatLine, type Heartbeat } from './line.js';

/** Options of {@link readNewestHeartbeat}. */
export interface ReadNewestOptions {
  /**
   * The dispatch's `startedAt`: heartbeats stamped earlier than this minus
   * {@link CLOCK_SKEW_ALLOWANCE_S} belong to an earlier dispatch of the reused
   * sidecar and are no signal (the scan stops there: the file is append-only).
   */
  notBefore?: Date;
  /** The judging time: heartbeats stamped later than this plus the allowance are no signal. */
  now: Date;
  /** Bytes read from the end at most (default {@link TAIL_WINDOW_BYTES}). */
  windowBytes?: number;
}

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * The newest heartbeat of a sidecar for this dispatch, read from the END of
 * the file in 64 KiB chunks: the cost does not depend on the file's size
 * (at most `windowBytes` are read, usually one chunk). Lines are split on the
 * LF byte, which never occurs inside a multi-byte UTF-8 sequence; a trailing
 * `\r` is dropped. `line` is 0 in the result (unknown from a tail read).
 * @returns null when the file does not exist, or holds no heartbeat inside
 *   [notBefore − allowance, now + allowance] within the window.
 * @throws InputError naming the file when it exists but cannot be read (a
 *   directory, a FIFO or other non-regular file — opened non-blocking, never
 *   waited on — no permission).
 */
export async function readNewestHeartbeat(path: string, opts: ReadNewestOptions): Promise<Heartbeat | null> {
  const skewMs = CLOCK_SKEW_ALLOWANCE_S * 1000;
  const latest = opts.now.getTime() + skewMs;
  const earliest = opts.notBefore ? opts.notBefore.getTime() - skewMs : -Infinity;
  const window = opts.windowBytes ?? TAIL_WINDOW_BYTES;
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below as not a regular file.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw readError(path, error);
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new InputError('is a directory, expected an audit sidecar', { file: path });
    if (!st.isFile()) throw new InputError('is not a regular file, expected an audit sidecar', { file: path });
    const size = st.size;
    const stop = Math.max(0, size - window);
    let end = size;
    let carry = Buffer.alloc(0); // the start of the line that continues past `end`
    while (end > stop) {
      const start = Math.max(stop, end - CHUNK);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      const buf = carry.length ? Buffer.concat([chunk, carry]) : chunk;
      let cut = buf.length;
      for (let i = buf.length - 1; i >= 0; i--) {
        if (buf[i] !== NEWLINE) continue;
        const verdict = judge(buf.subarray(i + 1, cut), earliest, latest);
        if (verdict !== undefined) return verdict;
        cut = i;
      }
      carry = Buffer.from(buf.subarray(0, cut));
      end = start;
    }
    // `carry` is now the file's first line, or a line cut by the window's start (not judged: its column 0 is unknown).
    const verdict = stop === 0 ? judge(stripBom(carry), earliest, latest) : undefined;
    return verdict ?? null;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw readError(path, error);
  } finally {
    await handle.close();
  }
}

/** undefined: keep scanning; null: stop, no signal; a heartbeat: found. */
function judge(bytes: Buffer, earliest: number, latest: number): Heartbeat | null | undefined {
  // Cheap pre-filter before decoding: the line must start with "- P".
  if (bytes.length < 14 || bytes[0] !== 0x2d || bytes[2] !== 0x50) return undefined;
  const hb = parseHeartbeatLine(bytes.toString('utf8'));
  if (!hb) return undefined;
  const t = hb.at.getTime();
  if (t > latest) return undefined; // stamped in the future: no signal, keep looking
  if (t < earliest) return null; // an earlier dispatch: everything above is older still
  return hb;
}

function stripBom(buf: Buffer): Buffer {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
}

function readError(path: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EISDIR') return new InputError('is a directory, expected an audit sidecar', { file: path });
  if (code === 'EACCES' || code === 'EPERM') return new InputError('permission denied', { file: path });
  return new InputError(`cannot read audit sidecar (${code ?? (error as Error).message})`, { file: path });
}
