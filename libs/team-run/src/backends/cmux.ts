import { childProcess } from '@okstra/core';
import { cmuxExecLine } from './wrapper-argv.js';
import type { PaneJob } from './tmux-dispatch.js';

/** Where one job ended up under cmux: a surface (and its pane), or why not. */
export type CmuxPlacement = { workerId: string; paneId: string; surfaceId: string } | { workerId: string; paneId: null; reason: string };

/** Run `cmux ...args` (argv, no shell). `missing` when cmux is not on PATH. */
export function runCmux(env: NodeJS.ProcessEnv, args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string; missing: boolean }> {
  return new Promise((resolvePromise) => {
    childProcess().execFile('cmux', args, { env, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolvePromise({
        ok: !error,
        stdout: stdout ?? '',
        stderr: (stderr ?? '').trim() || (error ? error.message : ''),
        missing: (error as NodeJS.ErrnoException | null)?.code === 'ENOENT',
      });
    });
  });
}

/** The `surface:`/`pane:` refs (or UUIDs under `surface`/`pane` keys) of a `cmux --json new-split` reply. */
export function parseSplitReply(stdout: string): { surfaceId: string | null; paneId: string | null } {
  try {
    const doc = JSON.parse(stdout) as Record<string, unknown>;
    const pick = (k: string) => {
      const v = doc[k] ?? doc[`${k}_id`] ?? doc[`${k}Id`] ?? doc[`${k}_ref`];
      return typeof v === 'string' && v ? v : null;
    };
    if (pick('surface')) return { surfaceId: pick('surface'), paneId: pick('pane') };
  } catch {
    // not JSON: fall back to the refs printed as text
  }
  return { surfaceId: /surface:[\w-]+/.exec(stdout)?.[0] ?? null, paneId: /pane:[\w-]+/.exec(stdout)?.[0] ?? null };
}

/**
 * Start each job's wrapper in a cmux split (docs/team.md "cmux panes"):
 * the first to the right of the lead's surface (`CMUX_SURFACE_ID`), the next
 * ones below the previous worker. `--command` is typed into a shell, so it is
 * exactly one `exec` of the wrapper with the okstra job-file path, every word
 * single-quoted ({@link cmuxExecLine}); a job whose words are not all safe,
 * or a failed split, gets no pane and degrades.
 */
export async function dispatchToCmux(jobs: readonly PaneJob[], env: NodeJS.ProcessEnv): Promise<CmuxPlacement[]> {
  const out: CmuxPlacement[] = [];
  let anchor = env.CMUX_SURFACE_ID ?? null;
  let direction = 'right';
  for (const job of jobs) {
    const line = cmuxExecLine(job.jobPath);
    if (!line) {
      out.push({
        workerId: job.workerId,
        paneId: null,
        reason: 'cmux: the wrapper path has a control character (newline), which cannot be typed into a shell',
      });
      continue;
    }
    const args = ['--json', 'new-split', direction, ...(anchor ? ['--surface', anchor] : []), '--command', line];
    const r = await runCmux(env, args);
    if (r.missing) {
      out.push({ workerId: job.workerId, paneId: null, reason: 'cmux not found on PATH' });
      continue;
    }
    const refs = parseSplitReply(r.stdout);
    if (!r.ok || !refs.surfaceId) {
      out.push({ workerId: job.workerId, paneId: null, reason: `cmux: ${r.stderr || 'new-split gave no surface'}` });
      continue;
    }
    out.push({ workerId: job.workerId, paneId: refs.paneId ?? refs.surfaceId, surfaceId: refs.surfaceId });
    anchor = refs.surfaceId;
    direction = 'down';
  }
  return out;
}
