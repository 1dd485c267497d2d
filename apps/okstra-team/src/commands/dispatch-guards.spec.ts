// issue 14: nothing reaches a shell or a tmux format; role labels; symlink containment; per-run job files.
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { memoryIo } from '@okstra/cli-kit';
import { main } from '../main.js';
import { team } from '../test-support/bin.js';
import { jobEntry, makeFixture, privateServer, rel, runArgs as run, tmux, waitFor, writeJobsFile, writeJsonFile } from '../test-support/fixture.js';

const socket = privateServer();

/** `okstra-team args` in-process (the 20x loops stay fast). */
async function inProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIo({ env, cwd: process.cwd() });
  const code = await main(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
}
const jobsFile = writeJobsFile;
const job = jobEntry;

describe('nothing reaches a shell or a tmux format (20 dispatches per payload)', () => {
  const payloads = (marker: string) => [`#(touch ${marker})`, '#{pane_id}', 'x;', `'q" `, `$(touch ${marker})`, `\`touch ${marker}\``, 'a\nb'];

  it('roles, worker ids and task ids carrying them are refused at validation: exit 2 naming the field, nothing written, nothing run', async () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket });
    const marker = join(dirname(f.root), 'marker');
    const state = readFileSync(f.teamStatePath, 'utf8');
    const manifest = readFileSync(f.manifestPath, 'utf8');
    for (const p of payloads(marker)) {
      const roleFile = jobsFile(f, 'reverify-jobs-r1-error-analysis-001.json', 'reverify-r1', [job(f, 'alpha', 'stub-ok', `Codex worker ${p}`)]);
      const idFile = jobsFile(f, 'reverify-jobs-r2-error-analysis-001.json', 'reverify-r2', [
        job(f, 'alpha', 'stub-ok', 'worker-reverify-r2', { workerId: `a${p}` }),
      ]);
      for (let i = 0; i < 20; i++) {
        const role = await inProcess(['dispatch', ...run(f), '--jobs-file', roleFile], f.env);
        expect([role.code, role.stderr.split('\n').length]).toEqual([2, 2]);
        expect(role.stderr).toMatch(/^okstra-team: .*reverify-jobs-r1-error-analysis-001\.json: jobs\[0\]\.role: (unknown role|role) /);
        const id = await inProcess(['dispatch', ...run(f), '--jobs-file', idFile], f.env);
        expect(id.code).toBe(2);
        expect(id.stderr).toMatch(/: jobs\[0\]\.workerId: expected a worker id of letters, digits/);
      }
    }
    const good = JSON.parse(manifest);
    for (const p of payloads(marker)) {
      writeFileSync(f.manifestPath, JSON.stringify({ ...good, taskKey: `sample:payments:refund${p}` }));
      for (let i = 0; i < 20; i++) {
        const r = await inProcess(['dispatch', ...run(f)], f.env);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/: taskKey: expected <project-id>:<task-group>:<task-id>/);
      }
    }
    writeFileSync(f.manifestPath, manifest);
    expect(readFileSync(f.teamStatePath, 'utf8')).toBe(state);
    expect(existsSync(join(f.runDir, 'state', 'team-jobs'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
    // the one unknown-label message lists the known labels
    const unknown = await inProcess(
      ['dispatch', ...run(f), '--jobs-file', jobsFile(f, 'x.json', 'reverify-r3', [job(f, 'alpha', 'stub-ok', 'reviewer')])],
      f.env,
    );
    expect(unknown.stderr).toContain(
      "jobs[0].role: unknown role 'reviewer' (known: Claude worker, Codex worker, Antigravity worker, Grok worker, Kimi worker,",
    );
    expect(unknown.stderr).toContain('Report writer worker');
  });

  it('a project path carrying them works: 20 real tmux dispatches each, no marker, titles and tags read back exactly', async () => {
    const marker = join(realpathSync(process.env.TMPDIR ?? '/tmp'), `okstra-marker-${process.pid}`);
    for (const p of payloads(marker)) {
      const f = makeFixture([{ id: 'alpha', provider: 'stub-ok', role: 'Claude worker' }], { socket, rootName: `proj ${p}`, env: { STUB_OK_SLEEP: '0' } });
      const records: any[] = [];
      for (let i = 0; i < 20; i++) {
        // --quiet: no progress line, so stderr holds only what went wrong
        const d = await inProcess(['dispatch', ...run(f), '--quiet'], f.env);
        expect([d.code, d.stderr]).toEqual([0, '']);
        // One dispatch per worker and kind (docs/team.md "One dispatcher per run"): each try starts from no record.
        const m = f.manifest();
        records.push(...m.workerDispatches);
        writeJsonFile(f.manifestPath, { ...m, workerDispatches: [] });
      }
      expect(records.map((r: any) => r.backend)).toEqual(Array(20).fill('tmux-pane'));
      for (const r of records) {
        const shown = tmux(socket, ['display-message', '-p', '-t', r.paneId, '#{pane_title}\t#{@okstra-run}\t#{@okstra-root}']).stdout.replace(/\n$/, '');
        expect(shown).toBe(`Claude worker\tsample:payments:refund-timeout/error-analysis-001\t${realpathSync(f.root)}`);
      }
      await waitFor(() => existsSync(f.result('alpha')) && f.row('alpha').status === 'completed', 90_000);
      expect(readFileSync(f.result('alpha'), 'utf8')).toContain('# prompt for alpha');
      expect(team(['teardown', ...run(f), '--force'], { env: f.env }).code).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(readdirSync(dirname(f.root)).filter((n) => n.includes('pwned') || n === 'marker')).toEqual([]);
    }
  }, 240_000);
});

describe('role capabilities use the seeds’ labels', () => {
  it('a read-only provider (grok, kimi) never takes report writer, executor or verifier, under any spelling: exit 2, nothing written', async () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket });
    // Dispatch refuses a provider CLI that is not installed (docs/providers.md): stand-ins for grok and kimi on PATH.
    const bin = join(f.home, 'bin');
    mkdirSync(bin, { recursive: true });
    for (const cli of ['grok', 'kimi']) {
      writeFileSync(join(bin, cli), '#!/bin/sh\nexit 0\n');
      chmodSync(join(bin, cli), 0o755);
    }
    const env = { ...f.env, PATH: `${bin}:${f.env.PATH ?? ''}` };
    const spellings = [
      'Report writer worker',
      'report-writer',
      'REPORT_WRITER',
      'Report writer',
      'Executor',
      'executor',
      'Verifier',
      'verifier',
      'Plan verifier',
    ];
    for (const provider of ['grok', 'kimi']) {
      for (const role of spellings) {
        const file = jobsFile(f, 'report-writer-jobs-error-analysis-001.json', 'report-writer', [job(f, 'alpha', provider, role)]);
        const r = await inProcess(['dispatch', ...run(f), '--jobs-file', file], env);
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(
          `okstra-team: ${file}: jobs[0].role: provider '${provider}' cannot take role '${role}' (needs ${needsOf(role)}; ${provider} is read-only)\n`,
        );
      }
      for (const role of ['Grok worker', 'Kimi worker', 'analyser', 'Coverage critic', 'worker-reverify-r3']) {
        const file = jobsFile(f, 'reverify-jobs-r3-error-analysis-001.json', 'reverify-r3', [job(f, 'alpha', provider, role)]);
        const dry = await inProcess(['dispatch', ...run(f), '--jobs-file', file, '--dry-run'], env);
        expect([role, dry.code, dry.stderr]).toEqual([role, 0, '']);
      }
    }
    expect(existsSync(join(f.runDir, 'state', 'team-jobs'))).toBe(false);
  });
});

function needsOf(role: string): string {
  if (/writer/i.test(role)) return 'report-writer';
  if (/executor/i.test(role)) return 'implementation';
  return 'verification';
}

describe('dispatch refuses a path that escapes the project through a symlink, before anything is written', () => {
  it.each(['resultPath', 'promptPath', 'completionPaths'])('%s through a symlinked directory → exit 2 naming it; no job file, row or record', async (field) => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket });
    const outside = join(dirname(f.root), 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'p.md'), 'outside prompt\n');
    symlinkSync(outside, join(f.runDir, 'escape'));
    const via = rel(f, join(f.runDir, 'escape', 'p.md'));
    const over = field === 'completionPaths' ? { completionPaths: [via] } : { [field]: via };
    const file = jobsFile(f, 'reverify-jobs-r1-error-analysis-001.json', 'reverify-r1', [job(f, 'alpha', 'stub-ok', 'worker-reverify-r1', over)]);
    const state = readFileSync(f.teamStatePath, 'utf8');
    const r = await inProcess(['dispatch', ...run(f), '--jobs-file', file], f.env);
    expect(r.code).toBe(2);
    const named = field === 'completionPaths' ? 'completionPaths[0]' : field;
    // the containment rule is libs/paths resolveInsideRoot (by real path), used before anything is written
    expect(r.stderr).toBe(
      `okstra-team: ${file}: jobs[0].${named}: '${via}' leads outside the project root ${realpathSync(f.root)} through a symlink (real path ${realpathSync(outside)}/p.md)\n`,
    );
    expect(readFileSync(f.teamStatePath, 'utf8')).toBe(state);
    expect(f.manifest().workerDispatches).toEqual([]);
    expect(existsSync(join(f.runDir, 'state', 'team-jobs'))).toBe(false);
  });
});

describe('job files are named per run', () => {
  it('dispatching seq 002 and 003 of one task type writes two job files; seq 002’s record still points at its own', async () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket, env: { STUB_OK_SLEEP: '0' } });
    const base = f.manifest();
    const manifests = ['002', '003'].map((seq) => {
      const path = f.manifestPath.replace('-001.json', `-${seq}.json`);
      const teamState = base.teamStatePath.replace('-001.json', `-${seq}.json`);
      writeJsonFile(path, { ...base, seq, teamStatePath: teamState });
      writeFileSync(f.prompt('alpha').replace('-001.md', `-${seq}.md`), `# prompt ${seq}\n`);
      return path;
    });
    for (const m of manifests) expect((await inProcess(['dispatch', '--project-root', f.root, '--run-manifest', m], f.env)).code).toBe(0);
    const recs = manifests.map((m) => JSON.parse(readFileSync(m, 'utf8')).workerDispatches[0]);
    expect(recs.map((r: any) => r.jobPath.split('/').pop())).toEqual([
      'initial-alpha-error-analysis-002.job.json',
      'initial-alpha-error-analysis-003.job.json',
    ]);
    const job002 = JSON.parse(readFileSync(join(f.root, recs[0].jobPath), 'utf8'));
    expect([job002.rowStartedAt, job002.teamStatePath.endsWith('team-state-error-analysis-002.json')]).toEqual([recs[0].startedAt, true]);
    for (const m of manifests) {
      expect(team(['await', '--project-root', f.root, '--run-manifest', m], { env: f.env }).code).toBe(0);
      team(['teardown', '--project-root', f.root, '--run-manifest', m], { env: f.env });
    }
  });
});
