import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capabilityOfRoleLabel, normalizeRoleLabel, ROLE_LABELS, WRITE_CAPABILITIES } from './roles.js';

const EXAMPLES = new URL('../../../examples', import.meta.url).pathname;

/** Every worker role label the examples use (worker rows, worker assignments, jobs; not the lead's). */
function exampleWorkerRoles(): Set<string> {
  const out = new Set<string>();
  const walk = (d: string) =>
    readdirSync(d).forEach((n) => {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.json')) {
        const doc = JSON.parse(readFileSync(p, 'utf8'));
        for (const key of ['workers', 'workerAssignments', 'jobs']) {
          if (Array.isArray(doc?.[key])) for (const w of doc[key]) if (typeof w?.role === 'string') out.add(w.role);
        }
      }
    });
  walk(EXAMPLES);
  return out;
}

describe('role labels → capability (docs/providers.md "Roles → capability")', () => {
  it('the seeds’ labels map explicitly', () => {
    expect(
      Object.fromEntries(
        [
          'Claude worker',
          'Codex worker',
          'Antigravity worker',
          'Grok worker',
          'Kimi worker',
          'Report writer worker',
          'Executor',
          'Verifier',
          'Coverage critic',
          'analyser',
          'worker-reverify-r1',
          'worker-reverify-r12',
          'worker-plan-verify',
          'worker-gap-vote',
        ].map((l) => [l, capabilityOfRoleLabel(l)]),
      ),
    ).toEqual({
      'Claude worker': 'analysis',
      'Codex worker': 'analysis',
      'Antigravity worker': 'analysis',
      'Grok worker': 'analysis',
      'Kimi worker': 'analysis',
      'Report writer worker': 'report-writer',
      Executor: 'implementation',
      Verifier: 'verification',
      'Coverage critic': 'critic',
      analyser: 'analysis',
      'worker-reverify-r1': 'analysis',
      'worker-reverify-r12': 'analysis',
      'worker-plan-verify': 'analysis',
      'worker-gap-vote': 'analysis',
    });
  });

  it('every worker role label used under examples/ maps to a capability', () => {
    const roles = [...exampleWorkerRoles()];
    expect(roles.length).toBeGreaterThan(3);
    expect(roles.filter((r) => capabilityOfRoleLabel(r) === null)).toEqual([]);
  });

  it('spelling: case and separators do not matter; anything else unknown is null (refused)', () => {
    for (const s of ['report-writer', 'REPORT WRITER WORKER', 'report_writer_worker', ' Report  writer '])
      expect(capabilityOfRoleLabel(s)).toBe('report-writer');
    for (const s of ['verifier', 'VERIFIER', 'plan-verifier']) expect(capabilityOfRoleLabel(s)).toBe('verification');
    for (const s of ['executor', 'EXECUTOR']) expect(capabilityOfRoleLabel(s)).toBe('implementation');
    for (const s of ['Codex worker #(touch x)', 'worker-reverify-r0', 'worker-reverify-rX', 'reviewer', '', 'lead'])
      expect(capabilityOfRoleLabel(s)).toBeNull();
    expect(normalizeRoleLabel('  A_b -  c ')).toBe('a-b-c');
  });

  it('report writer, executor and verifier are the write capabilities a read-only provider never takes', () => {
    expect([...new Set(Object.values(ROLE_LABELS))].filter((c) => WRITE_CAPABILITIES.includes(c)).sort()).toEqual([
      'implementation',
      'report-writer',
      'verification',
    ]);
  });
});
