// okstra-worker-liveness targets (issue 5), through the real bin with --stall-confirm 0:
// - a 256 MiB sidecar probes within 1.2× a 4 KiB one (tail read: cost independent of size);
// - 64 workers in one call within 2× one worker.
// Fixtures live in a temp project deleted afterwards.
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { binPath, median, timeCommand } from './lib.mjs';

export const title = 'worker-liveness (median wall time, --stall-confirm 0)';

const RUNS = 9;
const RUN = '.okstra/tasks/bench/liveness/runs/error-analysis';
const PROSE = '| `src/queue.ts:42` | read the retry loop; the backoff doubles until the cap |\nChecked the worker pool and its shutdown path.\n';

function med(args, cwd) {
  for (let i = 0; i < 2; i++) timeCommand(process.execPath, args, { cwd });
  return median(Array.from({ length: RUNS }, () => timeCommand(process.execPath, args, { cwd, expectCode: 0 })));
}

export default async function () {
  const root = mkdtempSync(join(tmpdir(), 'okstra-liveness-bench-'));
  try {
    const write = (rel, text) => {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    };
    const now = Date.now();
    const beat = (i) => `- PROGRESS: ${new Date(now - 60_000 + i).toISOString()} round-1 checking src/queue.ts\n`;
    const row = (id, sidecar) => ({
      workerId: id,
      provider: 'claude',
      role: 'analyser',
      status: 'in-progress',
      startedAt: new Date(now - 600_000).toISOString(),
      attempt: 1,
      livenessMode: 'audit-heartbeat',
      auditSidecarPath: sidecar,
    });
    const teamState = (name, rows) => {
      const rel = `${RUN}/state/team-state-${name}.json`;
      write(rel, JSON.stringify({ schemaVersion: '1.0', taskType: 'error-analysis', seq: '001', workers: rows }));
      return rel;
    };

    // A 4 KiB and a 256 MiB sidecar, both ending with prose after their newest heartbeat.
    const small = `${RUN}/worker-results/small.audit.md`;
    write(small, PROSE.repeat(Math.floor(4096 / PROSE.length) - 2) + beat(0) + PROSE);
    const big = `${RUN}/worker-results/big.audit.md`;
    mkdirSync(dirname(join(root, big)), { recursive: true });
    const fd = openSync(join(root, big), 'w');
    const block = Buffer.from((beat(0) + PROSE.repeat(40)).repeat(Math.ceil((1 << 20) / (beat(0).length + PROSE.length * 40))).slice(0, 1 << 20));
    for (let i = 0; i < 256; i++) writeSync(fd, block);
    writeSync(fd, beat(1) + PROSE.repeat(20));
    closeSync(fd);
    const sizes = teamState('sizes', [row('small', small), row('big', big)]);
    const one = (ts, id) => [binPath('okstra-worker-liveness'), '--team-state', ts, '--worker', id, '--stall-confirm', '0'];
    const smallMs = med(one(sizes, 'small'), root);
    const bigMs = med(one(sizes, 'big'), root);
    rmSync(join(root, big));

    // 64 workers with their own sidecars, in one call, against one of them alone.
    const ids = Array.from({ length: 64 }, (_, i) => `w${String(i).padStart(2, '0')}`);
    for (const id of ids) write(`${RUN}/worker-results/${id}.audit.md`, PROSE.repeat(30) + beat(0) + PROSE);
    const many = teamState(
      'many',
      ids.map((id) => row(id, `${RUN}/worker-results/${id}.audit.md`)),
    );
    const oneMs = med(one(many, 'w00'), root);
    const allArgs = [binPath('okstra-worker-liveness'), ...ids.flatMap((id) => ['--team-state', many, '--worker', id]), '--stall-confirm', '0'];
    const allMs = med(allArgs, root);

    return [
      { name: 'probe, 256 MiB sidecar', ms: bigMs, baselineName: '4 KiB sidecar', baselineMs: smallMs, target: 1.2 },
      { name: 'probe, 64 workers in one call', ms: allMs, baselineName: '1 worker', baselineMs: oneMs, target: 2 },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
