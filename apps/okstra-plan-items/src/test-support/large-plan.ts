// A large, schema-valid report data.json for the SIGKILL test: `stages` stages of
// 5 steps + 1 dependency + 1 validation + 1 rollback (8 items each), padded text.
export function largeReportData(stages: number, pad: number): Record<string, unknown> {
  const filler = 'x'.repeat(pad);
  const sections = Array.from({ length: stages }, (_, k) => {
    const n = k + 1;
    return {
      stage_number: n,
      title: `Stage ${n}`,
      steps: Array.from({ length: 5 }, (_, i) => ({
        step: i + 1,
        action: `${i === 0 ? 'RED' : i === 1 ? 'GREEN' : 'REFACTOR'}: stage ${n} step ${i + 1} ${filler}`,
        files: [`src/stage-${n}/part-${i + 1}.ts`],
        command: 'npx vitest run',
        outcome: i === 0 ? 'FAIL' : 'PASS',
        expected: `stage ${n} step ${i + 1} ${filler}`,
      })),
      dependencies: [{ description: `dependency ${n} ${filler}` }],
      validation: [{ description: `validation ${n} ${filler}` }],
      rollback: [{ description: `rollback ${n} ${filler}` }],
    };
  });
  const ids = sections.flatMap((s) => [
    ...s.steps.map((r) => `P-Step-${s.stage_number}-${r.step}`),
    `P-Dep-${s.stage_number}-1`,
    `P-Val-${s.stage_number}-1`,
    `P-Rb-${s.stage_number}-1`,
  ]);
  return {
    schemaVersion: '2.0',
    taskType: 'implementation-planning',
    implementationPlanning: {
      baseRef: { ref: 'main', sha: 'c'.repeat(40) },
      options: [],
      stageMap: {
        stages: sections.map((s) => ({
          stage_number: s.stage_number,
          title: s.title,
          depends_on: s.stage_number > 1 ? [s.stage_number - 1] : [],
          step_count: 5,
        })),
      },
      stages: sections,
      requirementCoverage: [],
      planBodyVerification: { result: null, planItems: ids.map((id) => ({ id, verdicts: [] })) },
    },
  };
}

/** A verdicts envelope voting `verdict` on every id with a `pad`-long basis. */
export function envelopeFor(ids: string[], workerId: string, verdict: 'AGREE' | 'SUPPLEMENT', pad: number): Record<string, unknown> {
  return {
    schemaVersion: '1.0',
    contributors: [workerId],
    items: ids.map((id) => ({ id, verdicts: [{ workerId, verdict, breakageKind: null, fixability: null, basis: `${id} ${'y'.repeat(pad)}` }] })),
  };
}
