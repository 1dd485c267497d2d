import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { InputError } from '@okstra/core';
import { TAIL_WINDOW_BYTES } from './constants.js';
import { parseHeartbeatLine, type Heartbeat } from './line.js';
import { newestOfDispatch, type DispatchWindow } from './rule.js';

/** Options of {@link readNewestHeartbeat}. */
export interface ReadNewestOptions {
  /**
   * The dispatch's `startedAt`: heartbeats stamped earlier than this minus the
   * 30 s allowance belong to an earlier dispatch of the reused sidecar and are
   * no signal (skipped; the scan goes on to the lines above).
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
 * The newest heartbeat of a sidecar for this dispatch — {@link newestOfDispatch}:
 * the last heartbeat line in file order stamped inside [notBefore − 30 s,
 * now + 30 s] — read from the END of the file in 64 KiB chunks, so the cost
 * does not depend on the file's size (it stops at the answer, usually in the
 * first chunk; at most `windowBytes` are read, when no line of the window
 * counts). Lines are split on the LF byte, which never occurs inside a
 * multi-byte UTF-8 sequence; a trailing `\r` is dropped. `line` is 0 in the
 * result (unknown from a tail read).
 * @returns null when the file does not exist, or holds no heartbeat of this
 *   dispatch within the window.
 * @throws InputError naming the file when it exists but cannot be read (a
 *   directory, a FIFO or other non-regular file — opened non-blocking, never
 *   waited on — no permission).
 */
export async function readNewestHeartbeat(path: string, opts: ReadNewestOptions): Promise<Heartbeat | null> {
  const dispatch: DispatchWindow = { startedAt: opts.notBefore, now: opts.now };
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
      const lines = { cut: buf.length };
      const found = newestOfDispatch(heartbeatsFromEnd(buf, lines), dispatch);
      if (found) return found;
      carry = Buffer.from(buf.subarray(0, lines.cut));
      end = start;
    }
    // `carry` is now the file's first line, or a line cut by the window's start (not read: its column 0 is unknown).
    const first = stop === 0 ? heartbeatOf(stripBom(carry)) : null;
    return first ? newestOfDispatch([first], dispatch) : null;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw readError(path, error);
  } finally {
    await handle.close();
  }
}

/**
 * The heartbeats of the complete lines of `buf`, newest first, lazily (the
 * caller stops at its answer). `state.cut` ends at the start of the first,
 * incomplete line once the generator has run out.
 */
function* heartbeatsFromEnd(buf: Buffer, state: { cut: number }): Generator<Heartbeat> {
  for (let i = buf.length - 1; i >= 0; i--) {
    if (buf[i] !== NEWLINE) continue;
    const hb = heartbeatOf(buf.subarray(i + 1, state.cut));
    state.cut = i;
    if (hb) yield hb;
  }
}

/** The line as a heartbeat, or null; a cheap byte pre-filter (`- P…`) before decoding. */
function heartbeatOf(bytes: Buffer): Heartbeat | null {
  if (bytes.length < 14 || bytes[0] !== 0x2d || bytes[2] !== 0x50) return null;
  return parseHeartbeatLine(bytes.toString('utf8'));
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
