// run-audit over generated runs (issue 6 targets): the full audit of 5,000
// runs against merely reading every artifact file of those runs (a node
// process that walks the tree and reads each file), target ≤ 4×; and peak RSS
// of the audit at 1,000 vs 5,000 runs, which must not grow with the number of
// runs (the audit streams runs; target ≤ 1.25×, the "ms" column holds MB),
// plus the live heap after a forced GC at the same two sizes (what streaming
// bounds directly; RSS also carries V8's young/old generation sizing).
// First row (issue #24 item 6): run-audit on a copy of examples/sample-project
// (5 runs, exit 1: its planted broken runs) against `node -e 0`, A/B interleaved
// in the same run, target ≤ 2× (cold: every call is a fresh process; the same
// command as the row of startup.bench.mjs).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ab, binPath, median, repoRoot, timeCommand } from './lib.mjs';

export const title = 'run-audit (generated runs; RSS rows are in MB)';

const RUNS_PER_TASK = 5;

/** Write a project with `runs` clean error-analysis runs (13 artifact files each: two analysers and the report writer). */
function generate(runs) {
  const root = mkdtempSync(join(tmpdir(), `okstra-bench-audit-${runs}-`));
  const write = (rel, text) => {
    const abs = join(root, rel);
    mkdirSync(join(abs, '..'), { recursive: true });
    writeFileSync(abs, text);
  };
  write('.okstra/project.json', JSON.stringify({ schemaVersion: '1.0', projectId: 'bench' }));
  const sidecar = [
    '# Audit',
    ...Array.from({ length: 6 }, (_, i) => `- PROGRESS: 2026-11-29T08:0${i}:10Z round-1 step ${i}`),
    '',
    '## Evidence read',
    '| c |',
    '|---|',
    '| `src/a.ts:1` |',
    '',
  ].join('\n');
  for (let t = 0; t < runs / RUNS_PER_TASK; t++) {
    const task = `.okstra/tasks/bench/task-${String(t).padStart(5, '0')}`;
    const taskKey = `bench:bench:task-${String(t).padStart(5, '0')}`;
    write(
      `${task}/task-manifest.json`,
      JSON.stringify({ schemaVersion: '1.0', taskKey, projectId: 'bench', taskGroup: 'bench', taskId: `task-${String(t).padStart(5, '0')}` }),
    );
    const dir = `${task}/runs/error-analysis`;
    for (let s = 1; s <= RUNS_PER_TASK; s++) {
      const sfx = `error-analysis-${String(s).padStart(3, '0')}`;
      const a = (role, provider) => ({ role, provider, model: 'm', executionValue: 'm', runner: 'cli-wrapper' });
      write(
        `${dir}/manifests/run-manifest-${sfx}.json`,
        JSON.stringify(
          {
            schemaVersion: '1.0',
            taskKey,
            taskType: 'error-analysis',
            seq: sfx.slice(-3),
            status: 'completed',
            startedAt: '2026-11-29T08:00:00Z',
            endedAt: '2026-11-29T09:00:00Z',
            teamStatePath: `${dir}/state/team-state-${sfx}.json`,
            reportAuthor: 'report-writer',
            leadRuntime: 'claude-code',
            hostRuntime: 'claude-code',
            leadAssignment: a('lead', 'claude'),
            workerAssignments: [a('analyser', 'claude'), a('analyser', 'codex'), a('report-writer', 'claude')],
            workerDispatches: [],
          },
          null,
          2,
        ),
      );
      const row = (w, role = 'analyser', provider = w, [startedAt, endedAt] = ['2026-11-29T08:00:00Z', '2026-11-29T08:06:00Z']) => ({
        workerId: w,
        provider,
        role,
        status: 'completed',
        startedAt,
        endedAt,
        attempt: 1,
        livenessMode: 'audit-heartbeat',
        auditSidecarPath: `${dir}/worker-results/${w}-${sfx}.audit.md`,
      });
      write(
        `${dir}/state/team-state-${sfx}.json`,
        JSON.stringify(
          {
            schemaVersion: '1.0',
            taskType: 'error-analysis',
            seq: sfx.slice(-3),
            // The report writer writes after every analyser (seed rule S32).
            workers: [row('claude'), row('codex'), row('report-writer', 'report-writer', 'claude', ['2026-11-29T08:07:00Z', '2026-11-29T08:09:00Z'])],
          },
          null,
          2,
        ),
      );
      for (const w of ['claude', 'codex', 'report-writer']) {
        write(`${dir}/prompts/${w}-prompt-${sfx}.md`, '# Analyse\n<!-- okstra:evidence-ledger required-v1 -->\n');
        write(`${dir}/worker-results/${w}-${sfx}.md`, '# Findings\nSee `src/a.ts:1`.\n');
        write(`${dir}/worker-results/${w}-${sfx}.audit.md`, sidecar);
      }
      write(`${dir}/reports/final-report-${sfx}.md`, '---\napproved: false\n---\n# Report\n');
      write(`${dir}/reports/final-report-${sfx}.data.json`, '{"schemaVersion":"1.0"}');
    }
  }
  return root;
}

const READER = `import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
let bytes = 0;
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else bytes += readFileSync(p).length; } };
walk(process.argv[2]);
`;

const HEAP = `const { auditProject } = await import(process.argv[2]);
let n = 0, max = 0;
for await (const r of auditProject(process.argv[3])) if (++n % 250 === 0) { global.gc(); max = Math.max(max, process.memoryUsage().heapUsed); }
process.stdout.write(String(max));
`;

const PRELOAD = `process.on('exit', () => require('node:fs').writeFileSync(process.env.OKSTRA_BENCH_RSS, String(process.resourceUsage().maxRSS)));`;

function peakRssMb(root, scratch) {
  const out = join(scratch, 'rss.txt');
  timeCommand(process.execPath, ['-r', join(scratch, 'preload.cjs'), binPath('okstra-run-audit'), 'run-audit', '--project-root', root, '--json'], {
    expectCode: 0,
    env: { ...process.env, OKSTRA_BENCH_RSS: out },
  });
  return Number(readFileSync(out, 'utf8')) / 1024; // maxRSS is in KiB
}

function liveHeapMb(root, scratch) {
  const r = spawnSync(process.execPath, ['--expose-gc', join(scratch, 'heap.mjs'), join(repoRoot, 'libs', 'audit-rules', 'dist', 'index.js'), root], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`live-heap harness exited ${r.status}: ${r.stderr}`);
  return Number(r.stdout) / 1048576;
}

export default async function () {
  const scratch = mkdtempSync(join(tmpdir(), 'okstra-bench-audit-'));
  writeFileSync(join(scratch, 'reader.mjs'), READER);
  writeFileSync(join(scratch, 'preload.cjs'), PRELOAD);
  writeFileSync(join(scratch, 'heap.mjs'), HEAP);
  const sample = join(scratch, 'sample-project');
  cpSync(join(repoRoot, 'examples', 'sample-project'), sample, { recursive: true });
  const [nodeMs, sampleMs] = ab(
    { args: ['-e', '0'] },
    { args: [binPath('okstra-run-audit'), 'run-audit', '--project-root', '.', '--json'], cwd: sample, code: 1 },
  );
  const small = generate(1000);
  const large = generate(5000);
  try {
    const audit = (root) => () =>
      timeCommand(process.execPath, [binPath('okstra-run-audit'), 'run-audit', '--project-root', root, '--json'], { expectCode: 0 });
    const read = (root) => () => timeCommand(process.execPath, [join(scratch, 'reader.mjs'), join(root, '.okstra')], { expectCode: 0 });
    const med = (fn, n = 3) => {
      fn(); // warm the page cache
      return median(Array.from({ length: n }, fn));
    };
    const readMs = med(read(large));
    const auditMs = med(audit(large));
    const rssSmall = median([0, 1, 2].map(() => peakRssMb(small, scratch)));
    const rssLarge = median([0, 1, 2].map(() => peakRssMb(large, scratch)));
    const heapSmall = liveHeapMb(small, scratch);
    const heapLarge = liveHeapMb(large, scratch);
    return [
      { name: 'run-audit on the sample', ms: sampleMs, baselineName: 'node -e 0', baselineMs: nodeMs, target: 2 },
      { name: 'run-audit, 5,000 runs', ms: auditMs, baselineName: 'read every artifact file', baselineMs: readMs, target: 4 },
      { name: 'run-audit peak RSS MB, 5,000 runs', ms: rssLarge, baselineName: 'peak RSS MB, 1,000 runs', baselineMs: rssSmall, target: 1.25, unit: 'MB' },
      {
        name: 'run-audit live heap MB after GC, 5,000 runs',
        ms: heapLarge,
        baselineName: 'live heap MB, 1,000 runs',
        baselineMs: heapSmall,
        target: 1.1,
        unit: 'MB',
      },
    ];
  } finally {
    for (const d of [small, large, scratch]) rmSync(d, { recursive: true, force: true });
  }
}
