// The real provider CLIs installed by `npm run providers:install` (pinned by
// providers/package-lock.json, cached outside the repository; this package's
// `test` script runs that step first), run with no credentials and no network:
// every address they could reach is a loopback port that refuses connections
// or the scripted model server.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { providersCacheDir } from '../../providers/cache.mjs';

const CACHE = providersCacheDir();
if (!existsSync(join(CACHE, '.installed')))
  throw new Error(`the provider CLIs are not installed in ${CACHE}: run \`npm run providers:install\` (this package's test script runs it first)`);

/** The directory holding `claude` and `codex` (put it first on a worker's PATH). */
export const PROVIDER_BIN_DIR = join(CACHE, 'bin');
/** The native `claude` binary of @anthropic-ai/claude-code and the `codex` launcher of @openai/codex (with its platform binary). */
export const CLAUDE_BIN = join(PROVIDER_BIN_DIR, 'claude');
export const CODEX_BIN = join(PROVIDER_BIN_DIR, 'codex');
export const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(CACHE, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** A loopback port nothing listens on (bound, then closed): a connection to it is refused at once. */
export async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * An environment with no credentials and no way out: a fresh HOME (and
 * CODEX_HOME), the providers' API base URLs and every proxy variable pointing
 * at a refusing loopback port, update checks and telemetry off. Nothing of the
 * caller's environment is passed but PATH.
 */
export function offlineEnv(home: string, port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dead = `http://127.0.0.1:${port}`;
  mkdirSync(join(home, '.codex'), { recursive: true });
  return {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    LANG: 'C.UTF-8',
    CODEX_HOME: join(home, '.codex'),
    OPENAI_BASE_URL: `${dead}/v1`,
    ANTHROPIC_BASE_URL: dead,
    HTTPS_PROXY: dead,
    HTTP_PROXY: dead,
    ALL_PROXY: dead,
    https_proxy: dead,
    http_proxy: dead,
    all_proxy: dead,
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...extra,
  };
}

/**
 * The environment of a dispatch by okstra-team to the real CLIs talking to a scripted model at `modelUrl`:
 * `offlineEnv` (every other address refused) plus the pinned CLIs on PATH, placeholder keys, the tmux
 * socket the suite owns and the team poll interval in ms.
 */
export async function scriptedWorkerEnv(home: string, modelUrl: string, socket: string, pollMs: number): Promise<NodeJS.ProcessEnv> {
  pointCodexAt(home, modelUrl);
  return offlineEnv(home, await refusingPort(), {
    PATH: `${PROVIDER_BIN_DIR}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    ANTHROPIC_API_KEY: 'sk-ant-placeholder-not-a-key',
    SCRIPTED_MODEL_KEY: 'placeholder',
    ANTHROPIC_BASE_URL: modelUrl,
    NO_PROXY: '127.0.0.1',
    no_proxy: '127.0.0.1',
    OKSTRA_TMUX_SOCKET: socket,
    OKSTRA_TEAM_POLL_MS: String(pollMs),
  });
}

/** What a CLI run printed, and how it ended. */
export interface CliRun {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when `until` matched and the run was stopped there. */
  stopped: boolean;
}

/**
 * Run a CLI (prompt on stdin) in its own process group; stop the group as
 * soon as `until` matches (or accepts) its combined output so far (it reached
 * the point of connecting), or after `timeoutMs`.
 */
export function runCli(
  file: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; stdin: string; until?: RegExp | ((output: string) => boolean); timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const check = () => {
      const until = o.until;
      const reached = until && (typeof until === 'function' ? until(stdout + stderr) : until.test(stdout + stderr));
      if (!stopped && reached) {
        stopped = true;
        stop();
      }
    };
    child.stdout.on('data', (b: Buffer) => ((stdout += b.toString('utf8')), check()));
    child.stderr.on('data', (b: Buffer) => ((stderr += b.toString('utf8')), check()));
    const timer = setTimeout(stop, o.timeoutMs ?? 30_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, signal, stopped });
    });
    child.stdin.end(o.stdin);
  });
}

/** The codex model the examples and suites use: one whose metadata Codex 0.171.0 ships (so it offers apply_patch). */
export const CODEX_MODEL = 'gpt-5.5';

/**
 * Point codex at a (scripted) Responses API: `CODEX_HOME/config.toml` names a
 * model provider with that base URL (codex ignores OPENAI_BASE_URL for it) and
 * no retries. The key comes from `SCRIPTED_MODEL_KEY` (give it any value).
 */
export function pointCodexAt(home: string, origin: string): void {
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(
    join(home, '.codex', 'config.toml'),
    [
      'model_provider = "scripted"',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${origin}/v1"`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_MODEL_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
}

/** One `connect(2)` strace saw: the family and, for IP, address and port. */
export interface Connect {
  family: string;
  address: string | null;
  port: number | null;
  line: string;
}

/** The `connect` calls of an `strace -f -e trace=connect -o <file>` log. */
export function connectsOf(log: string): Connect[] {
  return log
    .split('\n')
    .filter((l) => l.includes('connect('))
    .map((line) => {
      const family = /sa_family=(\w+)/.exec(line)?.[1] ?? 'unknown';
      const port = /htons\((\d+)\)/.exec(line)?.[1];
      const address = /inet_(?:addr|pton)\((?:AF_INET6, )?"([^"]+)"/.exec(line)?.[1] ?? /sun_path="([^"]*)"/.exec(line)?.[1] ?? null;
      return { family, address, port: port ? Number(port) : null, line };
    });
}
