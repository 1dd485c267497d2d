// Run the real built bin (apps/okstra-plan-items/dist/bin.js) and copy the committed example run.
import { runBin as runBuiltBin } from '@okstra/core/test-support';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
export const BIN = join(REPO, 'apps/okstra-plan-items/dist/bin.js');
export const UMBRELLA = join(REPO, 'apps/okstra/dist/bin.js');
export const EXAMPLE_RUN = join(REPO, 'examples/sample-project/.okstra/tasks/payments/refund-timeout/runs/implementation-planning');
const S = '-implementation-planning-001';

/** Names inside a copied run directory. */
export const RUN_FILES = {
  data: `reports/final-report${S}.data.json`,
  items: `state/plan-items${S}.json`,
  verdicts: `state/plan-verdicts${S}.json`,
  claude: `worker-results/claude-plan-verify${S}.md`,
  codex: `worker-results/codex-plan-verify${S}.md`,
};

/** Exit code and output of one run. */
export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `node dist/bin.js …args` in `cwd` (the shared `runBin`). */
export function runBin(args: string[], cwd: string, bin = BIN): BinResult {
  const { code, stdout, stderr } = runBuiltBin(bin, args, { cwd });
  return { code, stdout, stderr };
}

/** A temp copy of the example implementation-planning run; `cleanup()` removes it. */
export function copyExampleRun(): { dir: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'okstra-plan-items-'));
  const dir = join(root, 'run');
  cpSync(EXAMPLE_RUN, dir, { recursive: true });
  return { dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
