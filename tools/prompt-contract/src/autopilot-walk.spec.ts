import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BATCH_ANSWER_STUB, installStubProvider } from '@okstra/team-state/test-support';
import { REPO_ROOT } from './corpus.js';
import { extractCommandLines } from './markdown.js';

/**
 * The external and cmux adapters run the reverify rounds with one fenced `okstra convergence run`
 * line: that exact line (placeholders filled in, nothing added) takes the seeded sample run to a
 * validated final state through the real `okstra` bin, with batch-answering stub provider CLIs.
 */
const BIN = join(REPO_ROOT, 'apps/okstra/dist/bin.js');
const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
const S = `${RUN}/state`;
const socket = `okstra-autopilot-walk-${process.pid}`;
const dirs: string[] = [];
afterAll(() => {
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const runLine = (adapter: string) => {
  const lines = extractCommandLines(readFileSync(join(REPO_ROOT, adapter), 'utf8'), adapter).filter(
    (c) => c.origin === 'fence' && c.words[1] === 'convergence' && c.words[2] === 'run',
  );
  expect(lines, `${adapter}: one fenced okstra convergence run line`).toHaveLength(1);
  return lines[0]!;
};

describe('the adapters run convergence rounds with okstra convergence run', () => {
  it('external.md and cmux.md name the same line; run as written it reaches a validated final state', () => {
    const line = runLine('prompts/lead/adapters/external.md');
    expect(runLine('prompts/lead/adapters/cmux.md').text).toBe(line.text);
    const base = mkdtempSync(join(tmpdir(), 'okstra-autopilot-walk-'));
    dirs.push(base);
    const root = join(base, 'sample-project');
    cpSync(join(REPO_ROOT, 'examples/sample-project'), root, { recursive: true });
    const home = join(base, 'home');
    for (const id of ['claude', 'codex', 'grok']) installStubProvider(home, id, BATCH_ANSWER_STUB);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, OKSTRA_TMUX_SOCKET: socket, OKSTRA_TEAM_POLL_MS: '100', STUB_FAIL_FIRST: 'codex' };
    delete env.TMUX;
    const okstra = (words: string[]) => spawnSync(process.execPath, [BIN, ...words], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    const seeded = okstra([
      'convergence',
      'seed',
      '--groups',
      `${S}/convergence-groups-error-analysis-001.json`,
      '--work-state',
      `${S}/convergence-work-error-analysis-001.json`,
      '--final-state',
      `${S}/convergence-final-error-analysis-001.json`,
      '--migration-dir',
      `${S}/convergence-migration`,
    ]);
    expect(seeded.status, seeded.stderr).toBe(0);
    const values: Record<string, string> = { '<root>': root, '<manifest>': `${RUN}/manifests/run-manifest-error-analysis-001.json` };
    const r = okstra(line.words.slice(1).map((w) => w.replace(/<[^<>]+>/g, (p) => values[p] ?? p)));
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.rounds.map((x: { round: number }) => x.round)).toEqual([1, 2]);
    expect(out.final).toMatchObject({ validated: true });
  }, 180_000);
});
