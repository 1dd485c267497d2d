// The umbrella and every tool bin answer --version: what is installed.
export const title = 'tools on this checkout';

const TOOLS = ['okstra-convergence', 'okstra-plan-items', 'okstra-worker-liveness', 'okstra-run-audit', 'okstra-team'];

export default async function ({ run, log }) {
  const okstra = run('okstra', ['--version']);
  if (okstra.code !== 0) return { ok: false, summary: `okstra --version exited ${okstra.code}` };
  for (const tool of TOOLS) {
    const r = run('okstra', [tool.replace(/^okstra-/, ''), '--version']);
    log(`  ${tool.padEnd(24)} ${r.code === 0 ? r.stdout.trim() : `exit ${r.code}`}`);
    if (r.code !== 0) return { ok: false, summary: `okstra ${tool} --version exited ${r.code}` };
  }
  return { ok: true, summary: `okstra ${okstra.stdout.trim()} and ${TOOLS.length} tools answer` };
}
