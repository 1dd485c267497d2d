// Cold start of every bin (issue 2 targets): `okstra-<tool> --version` against
// `node -e 0`, and `okstra <tool> --version` against `okstra-<tool> --version`.
import { binPath, median, timeCommand } from './lib.mjs';

export const title = 'cold start (median wall time, --version)';

const TOOLS = [
  ['okstra-convergence', 'convergence'],
  ['okstra-plan-items', 'plan-items'],
  ['okstra-worker-liveness', 'worker-liveness'],
  ['okstra-run-audit', 'run-audit'],
  ['okstra-team', 'team'],
];
const RUNS = 15;

function med(args) {
  for (let i = 0; i < 2; i++) timeCommand(process.execPath, args);
  return median(Array.from({ length: RUNS }, () => timeCommand(process.execPath, args, { expectCode: 0 })));
}

export default async function () {
  const rows = [];
  const node = med(['-e', '0']);
  const umbrella = med([binPath('okstra'), '--version']);
  rows.push({ name: 'okstra --version', ms: umbrella, baselineName: 'node -e 0', baselineMs: node, target: 1.5 });
  for (const [bin, word] of TOOLS) {
    const direct = med([binPath(bin), '--version']);
    const via = med([binPath('okstra'), word, '--version']);
    rows.push({ name: `${bin} --version`, ms: direct, baselineName: 'node -e 0', baselineMs: node, target: 1.5 });
    rows.push({ name: `okstra ${word} --version`, ms: via, baselineName: `${bin} --version`, baselineMs: direct, target: 1.25 });
  }
  return rows;
}
