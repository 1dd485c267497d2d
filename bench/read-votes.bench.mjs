// What the user gets is a read vote (issue #37 item 4): for each committed corpus
// of worker answers (libs/verdict-blocks test-support: forms, habits-and-traps,
// text-around-blocks) and each reader (collect-results, collect-verdicts), the
// answers read directly, read after one repair (the worker restating its own
// blocks in the prompt's form), and still refused — each row as a share of the
// corpus's answers ("answers" as the unit). The clear answers still refused are a
// row with a target: at most 10 % of the clear answers. The corpora are
// TypeScript test support, so the figures come from the read-votes specs of
// libs/convergence and libs/plan-items, run here through vitest.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { repoRoot } from './lib.mjs';

export const title = 'read votes: read directly / after one repair / still refused, per corpus';

export default async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-read-votes-'));
  const out = join(dir, 'figures.jsonl');
  try {
    for (const lib of ['libs/convergence', 'libs/plan-items']) {
      execFileSync('npx', ['vitest', 'run', '--config', '../../vitest.shared.mjs', 'src/read-votes.spec.ts'], {
        cwd: join(repoRoot, lib),
        env: { ...process.env, READ_VOTES_OUT: out },
        stdio: 'ignore',
      });
    }
    const rows = [];
    for (const line of readFileSync(out, 'utf8').split('\n').filter(Boolean)) {
      const f = JSON.parse(line);
      const row = (name, value, of, ofName, target) => ({
        name: `${f.corpus}: ${name}`,
        ms: value,
        baselineName: ofName,
        baselineMs: Math.max(of, 1),
        unit: 'answers',
        ...(target === undefined ? {} : { target }),
      });
      rows.push(row('read directly', f.readDirectly, f.answers, 'answers'));
      rows.push(row('read after one repair', f.readAfterOneRepair, f.answers, 'answers'));
      rows.push(row('still refused', f.stillRefused, f.answers, 'answers'));
      rows.push(row('clear still refused', f.clear.stillRefused, f.clear.answers, 'clear answers', 0.1));
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
