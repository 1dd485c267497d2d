// A real project tree, stub provider CLIs installed as user providers in a
// temp HOME, and a private tmux server per test file.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installStubProvider, writeJson, writeTeamRun } from '@okstra/team-state/test-support';
import { killServer, privateSocket, tmux } from '@okstra/team-run/test-support';
import { afterAll } from 'vitest';
import { team, type BinResult } from './bin.js';

export { killServer, privateSocket, tmux };

export const TASK_TYPE = 'error-analysis';
export const SEQ = '001';

/** Stub provider scripts: `ok` heartbeats and writes its result, `hang` never ends, `fail` exits 1 at once, `noresult` exits 0 without a result. */
const STUBS: Record<string, string> = {
  'stub-ok': `#!/bin/sh
prompt=$(cat)
audit="\${2%.md}.audit.md"
mkdir -p "$(dirname "$2")"
printf -- '- PROGRESS: %s round-1 reading the prompt\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$audit"
echo "stub-ok: model $1"
sleep "\${STUB_OK_SLEEP:-0.3}"
# Written whole (temp + rename): tests dispatch one worker many times, and a reader must never see a truncated answer.
printf '# result (%s)\\n\\n%s\\n' "$1" "$prompt" > "$2.tmp.$$" && mv "$2.tmp.$$" "$2"
`,
  'stub-slow': `#!/bin/sh
prompt=$(cat)
echo "stub-slow: working"
sleep 4
mkdir -p "$(dirname "$2")"
printf '# slow result\\n' > "$2"
`,
  'stub-hang': `#!/bin/sh
echo "stub-hang: thinking forever"
exec sleep 3600
`,
  'stub-fail': `#!/bin/sh
echo "stub-fail: authentication required" >&2
exit 1
`,
  'stub-noresult': `#!/bin/sh
cat > /dev/null
echo "stub-noresult: done, wrote nothing"
exit 0
`,
};

/** Install the stub providers under `<home>/.okstra/adapters/providers/<id>/`. */
export function installStubProviders(home: string): void {
  for (const [id, script] of Object.entries(STUBS)) installStubProvider(home, id, script);
}

/** One worker of a fixture: id, provider (a stub id or a bundled one) and role (default `analyser`). */
export interface WorkerSpec {
  id: string;
  provider: string;
  role?: string;
}

/** A fixture run: its paths, an env with the temp HOME and private tmux socket, and readers of its state. */
export interface Fixture {
  root: string;
  home: string;
  runDir: string;
  manifestPath: string;
  teamStatePath: string;
  env: NodeJS.ProcessEnv;
  prompt(worker: string): string;
  result(worker: string): string;
  manifest(): any;
  teamState(): any;
  row(worker: string): any;
}

const cleanups: string[] = [];
/** Remove every temp dir made by this file's fixtures (call in afterAll). */
export function removeFixtures(): void {
  for (const d of cleanups.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A sample project with one error-analysis run, its manifest (leadRuntime=external), team-state rows and prompts. */
export function makeFixture(
  workers: WorkerSpec[],
  options: { socket: string; rootName?: string; terminalBackend?: string; env?: NodeJS.ProcessEnv; heartbeatPrompt?: boolean },
): Fixture {
  const base = mkdtempSync(join(tmpdir(), 'okstra-team-'));
  cleanups.push(base);
  const root = join(base, options.rootName ?? 'project');
  const home = join(base, 'home');
  installStubProviders(home);
  const rows = workers.map((w) => ({ ...w, role: w.role ?? 'analyser' }));
  const run = writeTeamRun(root, rows, { seq: SEQ, taskType: TASK_TYPE, startedAt: '2026-11-29T08:00:00Z', terminalBackend: options.terminalBackend });
  const [runDir, manifestPath, teamStatePath] = [run.runDir, run.manifest, run.teamState].map((p) => join(root, p)) as [string, string, string];
  const prompt = (w: string) => join(root, run.prompt(w));
  const result = (w: string) => join(root, run.result(w));
  for (const w of workers) {
    mkdirSync(dirname(prompt(w.id)), { recursive: true });
    // Unless told otherwise the prompt asks for heartbeats, as the audit-sidecar fragment does (libs/providers livenessModeOf).
    const heartbeat = options.heartbeatPrompt === false ? '' : `Append "- PROGRESS: <time> <phase> <doing>" lines to ${w.id}-${TASK_TYPE}-${SEQ}.audit.md.\n`;
    writeFileSync(prompt(w.id), `# prompt for ${w.id}\nReview src/refund.ts; it's "quoted" and has ; $(rm -rf /) in it.\n${heartbeat}`);
  }
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, OKSTRA_TMUX_SOCKET: options.socket, OKSTRA_TEAM_POLL_MS: '100', ...options.env };
  delete env.TMUX;
  delete env.TMUX_PANE;
  const teamState = () => JSON.parse(readFileSync(teamStatePath, 'utf8'));
  return {
    root,
    home,
    runDir,
    manifestPath,
    teamStatePath,
    env,
    prompt,
    result,
    manifest: () => JSON.parse(readFileSync(manifestPath, 'utf8')),
    teamState,
    row: (w: string) => teamState().workers.find((r: any) => r.workerId === w),
  };
}

/** Write pretty JSON, creating parent directories (the shared fixture writer). */
export const writeJsonFile = writeJson;

/** A private tmux server name for one test file. */
/** Panes of the private server: id, dead, dead status, @okstra-run tag, title, session name. */
export function panes(socket: string): Array<{ id: string; dead: boolean; status: string; tag: string; title: string; session: string; remain: string }> {
  const r = tmux(socket, [
    'list-panes',
    '-a',
    '-F',
    '#{pane_id}\t#{pane_dead}\t#{pane_dead_status}\t#{@okstra-run}\t#{pane_title}\t#{session_name}\t#{remain-on-exit}',
  ]);
  if (r.code !== 0) return [];
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [id, dead, status, tag, title, session, remain] = l.split('\t');
      return { id: id!, dead: dead === '1', status: status!, tag: tag!, title: title!, session: session!, remain: remain! };
    });
}

/** Install a recording `cmux` stub in a new bin dir: each call appends its argv as one JSON line to `<dir>/cmux.log`; `new-split` runs its `--command` with `sh -c` (as cmux types it into a shell) and replies with refs. */
export function installCmuxStub(base: string): { binDir: string; calls(): string[][] } {
  const dir = mkdtempSync(join(base, 'cmux-'));
  const log = join(dir, 'cmux.log');
  writeFileSync(
    join(dir, 'cmux'),
    `#!${process.execPath}
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const argv = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(argv) + '\\n');
const verb = argv.find((a) => !a.startsWith('--'));
if (verb === 'new-split') {
  const n = fs.readFileSync(${JSON.stringify(log)}, 'utf8').split('\\n').filter((l) => l.includes('new-split')).length;
  const command = argv[argv.indexOf('--command') + 1];
  spawn('/bin/sh', ['-c', command], { detached: true, stdio: 'ignore' }).unref();
  process.stdout.write(JSON.stringify({ pane: 'pane:' + (n + 1), surface: 'surface:' + (n + 10) }) + '\\n');
} else if (verb === 'close-surface') {
  process.stdout.write('OK\\n');
}
`,
  );
  chmodSync(join(dir, 'cmux'), 0o755);
  return {
    binDir: dir,
    calls: () => {
      try {
        return readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      } catch {
        return [];
      }
    },
  };
}

/** A PATH with the few tools the stubs need and no tmux (for the degrade case). */
export function pathWithoutTmux(base: string): string {
  const dir = mkdtempSync(join(base, 'bin-'));
  for (const tool of ['sh', 'cat', 'sleep', 'date', 'mkdir', 'dirname', 'printf', 'echo', 'mv']) {
    const found = execFileSync('sh', ['-c', `command -v ${tool} || true`], { encoding: 'utf8' }).trim();
    if (found.startsWith('/')) symlinkSync(found, join(dir, tool));
  }
  return dir;
}

/** A private tmux server for this spec file, killed (with every fixture dir) after its last test. */
export function privateServer(): string {
  const socket = privateSocket();
  afterAll(() => {
    killServer(socket);
    removeFixtures();
  });
  return socket;
}

/** `--project-root <root> --run-manifest <manifest>` of a fixture. */
export const runArgs = (f: Fixture): string[] => ['--project-root', f.root, '--run-manifest', f.manifestPath];

/** `p` (absolute, inside the fixture) relative to the project root. */
export const rel = (f: Fixture, p: string): string => p.slice(f.root.length + 1);

/** `okstra-team await <run> --json [extra]`: its exit code and output, and stdout parsed (null when empty). */
export function awaitJson(f: Fixture, extra: string[] = []): BinResult & { doc: any } {
  const r = team(['await', ...runArgs(f), '--json', ...extra], { env: f.env });
  return { ...r, doc: r.stdout ? JSON.parse(r.stdout) : null };
}

/** Every file under `dir` (absolute path → UTF-8 text), for "nothing written" checks. */
export function snapshotTexts(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) =>
    readdirSync(d).forEach((n) => {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[p] = readFileSync(p, 'utf8');
    });
  walk(dir);
  return out;
}

/** Poll `check` every 50 ms until it holds or `ms` have passed (the assertion after it reports a miss). */
export async function waitFor(check: () => boolean, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; !check() && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
}

/** One entry of a jobs file: `workerId` on `provider` as `role`, its fixture prompt and result (project-relative), model `stub-model`; `over` on top. */
export function jobEntry(f: Fixture, workerId: string, provider: string, role: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    workerId,
    provider,
    role,
    modelExecutionValue: 'stub-model',
    promptPath: rel(f, f.prompt(workerId)),
    resultPath: rel(f, f.result(workerId)),
    workerResultPath: rel(f, f.result(workerId)),
    completionPaths: [rel(f, f.result(workerId))],
    ...over,
  };
}

/** Write the jobs file `<runDir>/state/<name>` (`{schemaVersion, dispatchKind, jobs}`); returns its absolute path. */
export function writeJobsFile(f: Fixture, name: string, dispatchKind: string, jobs: ReadonlyArray<Record<string, unknown>>): string {
  const path = join(f.runDir, 'state', name);
  writeJsonFile(path, { schemaVersion: '1.0', dispatchKind, jobs });
  return path;
}
