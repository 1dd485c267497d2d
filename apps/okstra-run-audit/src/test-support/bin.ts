// Helpers for tests through the real built bin and a recording stub `gh`.
import { runBin as runBuiltBin, runBinAsync as runBuiltBinAsync, type BinResult as BuiltBinResult } from '@okstra/core/test-support';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(new URL('../../dist/bin.js', import.meta.url).pathname);
export const UMBRELLA = resolve(new URL('../../../okstra/dist/bin.js', import.meta.url).pathname);

/** Exit code and output of one run. */
export interface BinResult {
  code: number;
  stdout: string;
  stderr: string;
}

const output = ({ code, stdout, stderr }: BuiltBinResult): BinResult => ({ code, stdout, stderr });

/**
 * Run `okstra-run-audit <args>` with exactly `env` (no inherited variables).
 * A bin still running after `timeoutMs` (default 20 s) is killed (SIGKILL) and reported as code 128,
 * so a hang fails the test instead of blocking the suite.
 */
export function runBin(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; bin?: string; timeoutMs?: number } = {}): BinResult {
  return output(runBuiltBin(options.bin ?? BIN, args, { env: options.env ?? {}, cwd: options.cwd, timeoutMs: options.timeoutMs ?? 20_000 }));
}

/** {@link runBin} without blocking: several bins run at once (concurrency tests). */
export function runBinAsync(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<BinResult> {
  return runBuiltBinAsync(BIN, args, { env: options.env ?? {}, cwd: options.cwd, timeoutMs: options.timeoutMs ?? 60_000 }).then(output);
}

/** What the stub gh does: auth result, issues to list, and whether sends fail. */
export interface GhScenario {
  authExit?: number;
  issues?: unknown[];
  failSend?: boolean;
  /** `gh issue list` fails with this stderr. */
  failList?: string;
  /** Each `gh issue create` / `comment` takes this long (ms): a slow GitHub. */
  sendDelayMs?: number;
}

/** One recorded gh call. */
export interface GhCall {
  argv: string[];
  stdin: string;
}

/**
 * A temp directory holding an executable `gh` (a node script with an absolute
 * shebang, so PATH can be only this directory) that records argv and stdin
 * into `calls.jsonl` and replays the scenario's canned JSON.
 */
export function makeStubGh(scenario: GhScenario = {}): { dir: string; setScenario(s: GhScenario): void; calls(): GhCall[] } {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-stub-gh-'));
  const script = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const dir = ${JSON.stringify(dir)};
const argv = process.argv.slice(2);
let stdin = '';
try { stdin = fs.readFileSync(0, 'utf8'); } catch {}
fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify({ argv, stdin }) + '\\n');
const s = JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8'));
const counter = path.join(dir, 'counter');
if (argv[0] === 'auth') { process.stderr.write(s.authExit ? 'not logged in\\n' : 'Logged in\\n'); process.exit(s.authExit || 0); }
if (argv[0] === 'issue' && argv[1] === 'list') {
  if (s.failList) { process.stderr.write(s.failList + '\\n'); process.exit(1); }
  process.stdout.write(JSON.stringify(s.issues || [])); process.exit(0);
}
if (s.failSend) { process.stderr.write('HTTP 502\\n'); process.exit(1); }
if (s.sendDelayMs) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, s.sendDelayMs);
const repo = argv[argv.indexOf('--repo') + 1];
if (argv[1] === 'create') {
  // One create at a time across concurrent stubs (the counter is GitHub's issue numbering).
  const lock = counter + '.lock';
  for (;;) { try { fs.mkdirSync(lock); break; } catch { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5); } }
  const n = (fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 100) + 1;
  fs.writeFileSync(counter, String(n));
  fs.rmdirSync(lock);
  process.stdout.write('Creating issue in ' + repo + '\\n\\nhttps://github.com/' + repo + '/issues/' + n + '\\n');
  process.exit(0);
}
if (argv[1] === 'comment') { process.stdout.write('https://github.com/' + repo + '/issues/' + argv[2] + '#issuecomment-1\\n'); process.exit(0); }
process.exit(3);
`;
  writeFileSync(join(dir, 'gh'), script);
  chmodSync(join(dir, 'gh'), 0o755);
  const setScenario = (s: GhScenario) => writeFileSync(join(dir, 'scenario.json'), JSON.stringify(s));
  setScenario(scenario);
  return {
    dir,
    setScenario,
    calls: () => {
      const file = join(dir, 'calls.jsonl');
      return existsSync(file)
        ? readFileSync(file, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as GhCall)
        : [];
    },
  };
}

/** A temp HOME, optionally with `~/.okstra/config.json` and a `~/.gitconfig`. */
export function makeHome(config?: unknown, gitconfig?: string): string {
  const home = mkdtempSync(join(tmpdir(), 'okstra-home-'));
  if (gitconfig !== undefined) writeFileSync(join(home, '.gitconfig'), gitconfig);
  if (config !== undefined) {
    mkdirSync(join(home, '.okstra'), { recursive: true });
    writeFileSync(join(home, '.okstra', 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  }
  return home;
}
