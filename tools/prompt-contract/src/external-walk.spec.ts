import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installStubProvider, teamRunPaths, writeTeamRun } from '@okstra/team-state/test-support';
import { REPO_ROOT } from './corpus.js';
import { extractCommandLines, type CommandLine } from './markdown.js';

/**
 * The external (all-CLI) adapter walked through on a copy of the sample
 * project, on a real tmux server with a private socket: the harness runs the
 * adapter's fenced okstra lines in the adapter's order (placeholders filled
 * in, nothing added) through the real `okstra` bin, with stub provider CLIs
 * installed as user providers in a temp HOME.
 */
const ADAPTER = 'prompts/lead/adapters/external.md';
const BIN = join(REPO_ROOT, 'apps/okstra/dist/bin.js');
const SEQ = '004';
const RUN_PATHS = teamRunPaths({ seq: SEQ });
const [RUN, MANIFEST, TEAM_STATE] = [RUN_PATHS.runDir, RUN_PATHS.manifest, RUN_PATHS.teamState];
const { prompt, result } = RUN_PATHS;

/** A stub provider CLI: heartbeats into its audit sidecar, then writes its result. */
const STUB = `#!/bin/sh
cat > /dev/null
mkdir -p "$(dirname "$2")"
printf -- '- PROGRESS: %s round-1 reading the prompt\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "\${2%.md}.audit.md"
printf '# findings\\n\\n- F-1 refund retry window too short\\n' > "$2"
`;

const dirs: string[] = [];
const socket = `okstra-external-walk-${process.pid}`;
afterAll(() => {
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function setup(): { root: string; env: NodeJS.ProcessEnv } {
  const base = mkdtempSync(join(tmpdir(), 'okstra-external-walk-'));
  dirs.push(base);
  const root = join(base, 'sample-project');
  cpSync(join(REPO_ROOT, 'examples/sample-project'), root, { recursive: true });
  const home = join(base, 'home');
  for (const id of ['stub-claude', 'stub-codex']) installStubProvider(home, id, STUB, ['analysis', 'critic', 'report-writer']);
  const workers = [
    { id: 'claude', provider: 'stub-claude', role: 'Claude worker' },
    { id: 'codex', provider: 'stub-codex', role: 'Codex worker' },
  ];
  writeTeamRun(root, workers, { seq: SEQ });
  for (const { id } of workers) {
    mkdirSync(dirname(join(root, prompt(id))), { recursive: true });
    writeFileSync(join(root, prompt(id)), `# ${id}: error-analysis ${SEQ}\n`);
  }
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, OKSTRA_TMUX_SOCKET: socket, OKSTRA_TEAM_POLL_MS: '100' };
  delete env.TMUX;
  delete env.TMUX_PANE;
  return { root, env };
}

/** The adapter's fenced okstra lines, in document order. */
function fencedLines(): CommandLine[] {
  return extractCommandLines(readFileSync(join(REPO_ROOT, ADAPTER), 'utf8'), ADAPTER).filter((c) => c.origin === 'fence');
}

describe(`${ADAPTER}, walked through with stub CLI workers on real tmux`, () => {
  it('dispatch, liveness, await, audit check, teardown: the commands it names, in its order', () => {
    const { root, env } = setup();
    const values: Record<string, string> = {
      '<root>': root,
      '<manifest>': MANIFEST,
      '<team-state>': TEAM_STATE,
      '<run>': join(root, RUN),
      '<type>': 'error-analysis',
      '<seq>': SEQ,
      '<id-1>': 'claude',
      '<id-2>': 'codex',
      '<id>': 'codex',
    };
    const fill = (words: string[]) => words.slice(1).map((w) => w.replace(/<[^<>]+>/g, (p) => values[p] ?? p));
    const okstra = (words: string[]) => spawnSync(process.execPath, [BIN, ...fill(words)], { cwd: root, env, encoding: 'utf8' });
    const lines = fencedLines();
    const pick = (what: string, test: (w: string[]) => boolean) => {
      const line = lines.find((c) => test(c.words));
      if (!line) throw new Error(`${ADAPTER} has no fenced line that ${what}`);
      return line;
    };
    const dispatch = pick('dispatches the manifest', (w) => w[2] === 'dispatch' && !w.includes('--jobs-file'));
    const wait = pick('awaits', (w) => w[2] === 'await');
    const probe = pick('probes liveness', (w) => w[1] === 'worker-liveness');
    const audit = pick('checks a returned worker', (w) => w[1] === 'worker-audit-check');
    const teardown = pick('tears down', (w) => w[2] === 'teardown');
    expect([dispatch, wait, probe, audit, teardown].map((l) => l.line)).toEqual(
      [...[dispatch, wait, probe, audit, teardown].map((l) => l.line)].sort((a, b) => a - b),
    );

    const d = okstra(dispatch.words);
    expect(d.stderr).toBe('okstra team: claude started\nokstra team: codex started\n'); // its progress lines, nothing else
    expect(d.status).toBe(0);
    expect(JSON.parse(d.stdout).dispatched.map((r: { workerId: string }) => r.workerId)).toEqual(['claude', 'codex']);

    const p = okstra(probe.words);
    expect(p.stderr).toBe('');
    expect(p.status).toBe(0); // just started: inside the launch grace, or already heartbeating / done

    const a = okstra(wait.words);
    expect(a.status).toBe(0);
    const awaited = JSON.parse(a.stdout);
    expect(awaited.workers.map((w: { workerId: string; status: string }) => [w.workerId, w.status])).toEqual([
      ['claude', 'completed'],
      ['codex', 'completed'],
    ]);
    expect(awaited.dispatch).toEqual([expect.stringMatching(/^claude=completed:\d+$/), expect.stringMatching(/^codex=completed:\d+$/)]);
    expect(readFileSync(join(root, result('codex')), 'utf8')).toContain('F-1');

    const c = okstra(audit.words);
    expect(c.stderr).toBe('');
    expect(JSON.parse(c.stdout)).toMatchObject({ ok: true });
    expect(c.status).toBe(0);

    const t = okstra(teardown.words);
    expect(t.status).toBe(0);
    expect(JSON.parse(t.stdout).closed).toHaveLength(2);
  });
});
