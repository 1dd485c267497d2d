/**
 * Opening a project for citation checks: its tree (at the run's recorded
 * commit when there is one), and a worker's evidence file.
 */
import { NotRegularFileError, tryReadArtifact } from '@okstra/state-file';
import { workerEvidenceArtifact, type WorkerEvidence } from '@okstra/schemas/worker-evidence';
import { checkCitations, summarize, type CitationReport, type CitationSummary } from './check.js';
import { commitTree, workingTree, type SourceTree } from './source-tree.js';

/** A project ready for citation checks, or why its citations cannot be checked. */
export type CitationChecker =
  | {
      status: 'ready';
      root: string;
      tree: SourceTree;
      /** Check a worker's Markdown; `evidence` is its evidence file's path (null / absent file: `read` unknown). */
      check(markdown: string, evidencePath: string | null): { citations: CitationReport[]; summary: CitationSummary };
    }
  | { status: 'unchecked'; reason: string };

/**
 * Open `root` for citation checks: at `commit` (the run manifest's `sourceCommit`) when given,
 * else its working tree. Unchecked — never a pass, never a failure — when the commit cannot be
 * read, or the project holds no file outside `.okstra/` (nothing there could be cited).
 */
export function openCitationChecker(root: string, commit?: string | null): CitationChecker {
  let tree: SourceTree;
  try {
    tree = commit ? commitTree(root, commit) : workingTree(root);
  } catch (error) {
    return { status: 'unchecked', reason: (error as Error).message };
  }
  if (!tree.hasSources()) return { status: 'unchecked', reason: `the project's ${tree.label} holds no file outside .okstra/` };
  return {
    status: 'ready',
    root,
    tree,
    check(markdown, evidencePath) {
      const evidence = evidencePath ? readEvidence(evidencePath) : null;
      const citations = checkCitations(markdown, { root, tree, evidence });
      return { citations, summary: summarize(citations, evidence) };
    },
  };
}

/** A worker's evidence file; null when absent, unreadable, not a regular file or not valid (was-read is then unknown). */
export function readEvidence(path: string): WorkerEvidence | null {
  try {
    return tryReadArtifact(path, workerEvidenceArtifact);
  } catch (error) {
    if (error instanceof NotRegularFileError) return null;
    throw error;
  }
}
