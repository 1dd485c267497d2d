// A document of another kind (a convergence working state passed as --run-manifest) is named as
// such, not reported as a schemaVersion or field mismatch (docs/conventions.md "Reading and writing artifacts").
import { describe, expect, it } from 'vitest';
import { runManifestArtifact } from '@okstra/schemas/run-manifest';
import { roundResultsArtifact } from '@okstra/schemas/convergence';
import { validateArtifact } from './artifact-io.js';

const workingState = { schemaVersion: '1.1', kind: 'convergence-working-state', seed: {}, rounds: [], derived: {} };

describe('validateArtifact names a document of another kind', () => {
  it('a convergence working state read as a run-manifest (which has no kind field)', () => {
    expect(() => validateArtifact(workingState, runManifestArtifact, { label: 'w.json' })).toThrow(
      `is a 'convergence-working-state' document (its "kind"); expected: okstra run-manifest`,
    );
  });

  it('a round plan read as round results (whose kind is another literal)', () => {
    const plan = { schemaVersion: '1.0', kind: 'round-plan', round: 1, mode: 'adversarial', batches: [] };
    expect(() => validateArtifact(plan, roundResultsArtifact, { label: 'p.json' })).toThrow(
      `is a 'round-plan' document (its "kind"); expected: okstra-convergence round result set`,
    );
  });

  it('its own kind with a bad field keeps the field error; a kind-less document keeps the version error', () => {
    const results = { schemaVersion: '1.0', kind: 'round-results', round: 0, mode: 'adversarial', workers: [] };
    expect(() => validateArtifact(results, roundResultsArtifact, { label: 'r.json' })).toThrow(/^(?!.*document \(its "kind"\))/);
    expect(() => validateArtifact({ schemaVersion: '9.9' }, runManifestArtifact, { label: 'm.json' })).toThrow(/unsupported schemaVersion "9.9"/);
  });
});
