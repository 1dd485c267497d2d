import { daemonSocketPath } from './socket.js';
import { lineReader, type DaemonDone, type DaemonReply, type DaemonRequest } from './protocol.js';

/** How long the client waits for a daemon's `accepted` before it runs the command itself (ms). */
const ACCEPT_TIMEOUT_MS = 1000;
/** After `accepted`, how long the client waits for any line (the daemon sends `alive` every second) before it runs the command itself (ms). */
const SILENCE_TIMEOUT_MS = 15_000;
/** At most this many characters are taken from a daemon (a report of a huge project is tens of MB); more is not a daemon's answer. */
const MAX_REPLY_CHARS = 512 * 1024 * 1024;

/** What {@link runViaDaemon} needs to know about the bin. */
export interface DaemonBin {
  /** The bin name (`okstra-run-audit`): names the socket. */
  name: string;
  /** Absolute path of the bin file (dist/bin.js). */
  binPath: string;
  /** Absolute path of the daemon entry (dist/daemon.js), started with the socket path as its argument. */
  daemonPath: string;
  /** First words that the daemon serves (`run-audit`): read-only commands whose whole output is written at the end. */
  commands: readonly string[];
}

/**
 * Run the command in the bin's warm daemon when it is eligible (docs/release.md
 * "The run-audit daemon"): the first word is one of `bin.commands`, stdout and
 * stderr are not terminals, `OKSTRA_DAEMON` is not `0`, the working directory
 * exists, nothing is loaded into the process as it starts (`needsOwnProcess`:
 * a preload, `NODE_OPTIONS`), no argument names this process's own objects
 * (`/dev/fd/3`, `/proc/self`), and a private socket directory exists. When no
 * daemon answers, one is started in the background for the next call and this
 * call runs in-process.
 * @returns the daemon's result, or null: run the command in this process
 *   (ineligible, no daemon yet, no `accepted` within 1 s, 15 s with no line
 *   from a daemon that accepted (stopped or hung), a malformed answer, or the
 *   daemon went away before it answered — the command is read-only, so
 *   running it again is safe).
 */
export async function runViaDaemon(bin: DaemonBin, argv: readonly string[]): Promise<DaemonDone | null> {
  const env = process.env;
  if (env['OKSTRA_DAEMON'] === '0' || process.platform === 'win32') return null;
  if (!bin.commands.includes(argv[0] ?? '') || process.stdout.isTTY || process.stderr.isTTY || argv.some(namesOwnProcess)) return null;
  const cwd = workingDirectory();
  const socketPath = cwd === null ? null : daemonSocketPath(bin.name, bin.binPath, env);
  if (!socketPath || cwd === null) return null;
  const request: DaemonRequest = { argv: [...argv], cwd, env: env as Record<string, string> };
  return new Promise((resolve) => {
    let accepted = false;
    let settled = false;
    const finish = (done: DaemonDone | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(done);
    };
    // Loaded only for an eligible call: node:net is most of what the check costs.
    const socket = process.getBuiltinModule('node:net').connect(socketPath);
    let timer = setTimeout(() => finish(null), ACCEPT_TIMEOUT_MS);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify(request) + '\n'));
    let received = 0;
    const feed = lineReader((line) => {
      let reply: DaemonReply;
      try {
        reply = JSON.parse(line) as DaemonReply;
      } catch {
        return finish(null);
      }
      if (reply?.t === 'accepted' || reply?.t === 'alive') {
        accepted = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish(null), SILENCE_TIMEOUT_MS);
      } else if (reply?.t === 'done' && isDone(reply)) finish(reply);
      else finish(null);
    });
    socket.on('data', (chunk: string) => {
      received += chunk.length;
      if (received > MAX_REPLY_CHARS) finish(null);
      else feed(chunk);
    });
    socket.on('close', () => finish(null));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // No daemon on the path (none yet, or a dead one's socket file): start one for the next call.
      if (!accepted && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) startDaemon(bin.daemonPath, socketPath);
      finish(null);
    });
  });
}

/**
 * True for an argument that names this process's own objects (`/dev/fd/3`,
 * `/dev/stdin`, `/proc/self/…`): in the daemon the same path names the
 * daemon's (`--project-root /dev/fd/3 3<dir` audited `dir` alone and was
 * "does not exist" served).
 */
function namesOwnProcess(word: string): boolean {
  return /(^|=)\/(dev\/(fd|std)|proc\/(self|thread-self|\d+))/.test(word);
}

/** The working directory, or null when it was removed (the command then says so in-process, as without a daemon). */
function workingDirectory(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

/** A `done` the client can print: an exit code 0–255 and two strings (anything else from the socket is not a daemon's answer). */
function isDone(reply: DaemonDone): boolean {
  return Number.isInteger(reply.code) && reply.code >= 0 && reply.code <= 255 && typeof reply.stdout === 'string' && typeof reply.stderr === 'string';
}

/** Start the daemon detached from this process: its own session, no stdio, in `/` (it holds no directory busy). */
function startDaemon(daemonPath: string, socketPath: string): void {
  try {
    // Loaded only here: node:child_process costs every call that reaches a daemon ~6 ms.
    process
      .getBuiltinModule('node:child_process')
      .spawn(process.execPath, [daemonPath, socketPath], { detached: true, stdio: 'ignore', cwd: '/', env: process.env })
      .unref();
  } catch {
    // No daemon this time: the command runs in-process all the same.
  }
}
