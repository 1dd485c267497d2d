import { createConnection, createServer, type Socket } from 'node:net';
import { unlinkSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { Io } from '../io.js';
import { dirname } from 'node:path';
import type { DaemonBin } from './client.js';
import { daemonSocketPath, distFingerprint } from './socket.js';
import { isRequest, lineReader, type DaemonDone, type DaemonRequest } from './protocol.js';

/** How long a daemon waits for its next request before it exits (ms); `OKSTRA_DAEMON_IDLE_MS` overrides it. */
export const DAEMON_IDLE_MS = 10 * 60 * 1000;
/** Requests one daemon serves before it exits (a fresh one starts on the next miss): nothing a command leaks accumulates. */
const MAX_REQUESTS = 2000;

/**
 * Serve `main(argv, io)` on the Unix socket `socketPath` (docs/release.md "The
 * run-audit daemon") for `bin` (its dist folder is the bin file's): one request
 * at a time, each with the client's argv, working directory and whole
 * environment (process.env is set to it for the request), its stdout and
 * stderr buffered and sent back with the exit code. Only `bin.commands` are
 * run: any other request, or one that is not a {@link DaemonRequest}, is
 * closed unanswered (a process of this user that connects on purpose cannot
 * make the daemon run `gh` or write a file). Exits at once when `socketPath`
 * is not the one its own key names (the dist or the caller changed while it
 * started), after {@link DAEMON_IDLE_MS} without a request, after
 * {@link MAX_REQUESTS}, when the dist's {@link distFingerprint} changed (the
 * request gets no answer), on an error it cannot answer, or when another
 * daemon already listens on the path. A socket file left by a killed daemon
 * (connect refused) is replaced.
 */
export function serveDaemon(main: (argv: readonly string[], io: Io) => Promise<number>, bin: Omit<DaemonBin, 'daemonPath'>, socketPath: string): void {
  const distDir = dirname(bin.binPath);
  const fingerprint = distFingerprint(distDir);
  // The client hashed what it saw before this process started; answer only if this process sees the same.
  if (daemonSocketPath(bin.name, bin.binPath, process.env) !== socketPath) process.exit(0);
  const idleMs = Number(process.env['OKSTRA_DAEMON_IDLE_MS']) || DAEMON_IDLE_MS;
  const queue: Array<{ socket: Socket; request: DaemonRequest }> = [];
  let busy = false;
  let served = 0;
  /** Connections waiting for their answer: each hears `alive` every second. */
  const waiting = new Set<Socket>();
  const heartbeat = setInterval(() => {
    for (const socket of waiting) socket.write('{"t":"alive"}\n');
  }, 1000);
  heartbeat.unref();
  let idle: NodeJS.Timeout | undefined;
  const shutdown = () => {
    server.close();
    try {
      unlinkSync(socketPath);
    } catch {
      // Already replaced or removed: nothing of ours to clean.
    }
    process.exit(0);
  };
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(shutdown, idleMs);
  };
  const next = async () => {
    if (busy) return;
    const job = queue.shift();
    if (!job) {
      if (served >= MAX_REQUESTS) shutdown();
      armIdle();
      return;
    }
    busy = true;
    clearTimeout(idle);
    if (!sameDist(distDir, fingerprint)) {
      // Rebuilt or upgraded in place: this code is not the bin's any more. No answer; the client runs the command itself.
      job.socket.destroy();
      shutdown();
    }
    const done = await runRequest(main, job.request);
    served++;
    waiting.delete(job.socket);
    job.socket.end(JSON.stringify(done) + '\n');
    busy = false;
    void next();
  };
  const server = createServer((socket) => {
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('close', () => waiting.delete(socket));
    socket.write('{"t":"accepted"}\n');
    let got = false;
    socket.on(
      'data',
      lineReader((line) => {
        if (got) return;
        got = true;
        let request: unknown;
        try {
          request = JSON.parse(line);
        } catch {
          request = null;
        }
        if (!isRequest(request) || !bin.commands.includes(request.argv[0] ?? '')) {
          socket.destroy();
          return;
        }
        queue.push({ socket, request });
        waiting.add(socket);
        void next();
      }),
    );
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') process.exit(70);
    // A live daemon answers on the path: leave it. A refused connection is a dead one's socket file.
    const probe = createConnection(socketPath);
    probe.on('connect', () => process.exit(0));
    probe.on('error', () => {
      try {
        unlinkSync(socketPath);
      } catch {
        process.exit(0);
      }
      server.listen(socketPath);
    });
  });
  // Stopped by a signal (a user's kill, a logout): the socket file goes too, so no client meets a dead one's.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, shutdown);
  server.listen(socketPath, armIdle);
}

function sameDist(distDir: string, fingerprint: string): boolean {
  try {
    return distFingerprint(distDir) === fingerprint;
  } catch {
    return false;
  }
}

async function runRequest(main: (argv: readonly string[], io: Io) => Promise<number>, request: DaemonRequest): Promise<DaemonDone> {
  let stdout = '';
  let stderr = '';
  setEnv(request.env);
  try {
    process.chdir(request.cwd);
  } catch {
    // A working directory that is gone: io.cwd still names it, as the in-process bin's would.
  }
  const io: Io = {
    stdin: Readable.from([]),
    stdout: { write: (s: string) => ((stdout += s), true), isTTY: false },
    stderr: { write: (s: string) => ((stderr += s), true), isTTY: false },
    cwd: request.cwd,
    env: process.env,
    now: () => new Date(),
  };
  let code: number;
  try {
    code = await main(request.argv, io);
  } catch {
    // main funnels every error through runCli; anything else is the daemon's fault: the client runs the command itself.
    process.exit(70);
  }
  process.chdir('/');
  return { t: 'done', code, stdout, stderr };
}

/** Make process.env exactly `env` (libraries that read process.env see the client's). */
function setEnv(env: Record<string, string>): void {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (process.env[key] !== value) process.env[key] = value;
}
