/**
 * The daemon's wire format: one JSON object per line, over a Unix socket.
 * The client sends a {@link DaemonRequest}; the daemon answers `accepted` at
 * once on connection, `alive` every second while the request waits or runs,
 * then one {@link DaemonDone} when the command has run.
 */
export interface DaemonRequest {
  /** The words after the bin name. */
  argv: string[];
  /** The client's working directory (absolute). */
  cwd: string;
  /** The client's whole environment: the command sees exactly it. */
  env: Record<string, string>;
}

/** True when `value` is a {@link DaemonRequest}: argv a list of strings, an absolute cwd, env a map of strings. */
export function isRequest(value: unknown): value is DaemonRequest {
  const r = value as DaemonRequest | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    Array.isArray(r.argv) &&
    r.argv.every((a) => typeof a === 'string') &&
    typeof r.cwd === 'string' &&
    r.cwd.startsWith('/') &&
    typeof r.env === 'object' &&
    r.env !== null &&
    Object.values(r.env).every((v) => typeof v === 'string')
  );
}

/** The command's whole result: the client writes `stdout` and `stderr`, then exits with `code`. */
export interface DaemonDone {
  t: 'done';
  code: number;
  stdout: string;
  stderr: string;
}

/** The daemon's first line on each connection: it is alive and the request will be run. */
export interface DaemonAccepted {
  t: 'accepted';
}

/** Sent every second to each client still waiting (queued or running): the daemon is not stopped or hung. */
export interface DaemonAlive {
  t: 'alive';
}

export type DaemonReply = DaemonAccepted | DaemonAlive | DaemonDone;

/**
 * Split a stream of text into lines, calling `onLine` for each complete one.
 * Only the new chunk is searched for a line end and a line's pieces are joined
 * once, so one huge line (a report of many megabytes) arriving in thousands of
 * chunks costs linear time.
 */
export function lineReader(onLine: (line: string) => void): (chunk: string) => void {
  // The pieces of the line not yet ended: joined once at its end (a growing string would be re-flattened per chunk).
  let parts: string[] = [];
  return (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      parts.push(chunk.slice(start, nl));
      const line = parts.join('');
      parts = [];
      start = nl + 1;
      onLine(line);
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  };
}
