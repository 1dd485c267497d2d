/**
 * The daemon's wire format: one JSON object per line, over a Unix socket.
 * The client sends a {@link DaemonRequest}; the daemon answers `accepted` at
 * once on connection, then one {@link DaemonDone} when the command has run.
 */
export interface DaemonRequest {
  /** The words after the bin name. */
  argv: string[];
  /** The client's working directory (absolute). */
  cwd: string;
  /** The client's whole environment: the command sees exactly it. */
  env: Record<string, string>;
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

export type DaemonReply = DaemonAccepted | DaemonDone;

/** Split a stream of text into lines, calling `onLine` for each complete one. */
export function lineReader(onLine: (line: string) => void): (chunk: string) => void {
  let buf = '';
  return (chunk) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      onLine(line);
    }
  };
}
