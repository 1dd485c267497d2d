import type { GhIssue } from './match.js';

/** Whether `gh` can be used: installed and authenticated (with a hint for the user when not). */
export type GhStatus = { ok: true } | { ok: false; reason: string; hint: string };

/**
 * The GitHub operations error-issue needs, injected into {@link buildErrorIssuePlan}
 * and {@link submitApproved} so their policy is tested as functions with an
 * in-memory runner. The app's implementation runs the `gh` CLI
 * (apps/okstra-run-audit/src/github/gh.ts); end-to-end tests put a stub `gh` on PATH.
 */
export interface GhRunner {
  /** `gh auth status`. Never throws. */
  status(): Promise<GhStatus>;
  /** Issues of `repo` whose body a search for `fp` returns (`issueSearchArgs`); throws OkstraError when gh fails. */
  searchIssues(repo: string, fp: string): Promise<GhIssue[]>;
  /** Create an issue; @returns its URL. Throws OkstraError when gh fails. */
  createIssue(repo: string, title: string, body: string): Promise<string>;
  /** Comment on issue `number`; @returns the comment's URL. Throws OkstraError when gh fails. */
  comment(repo: string, number: number, body: string): Promise<string>;
}
