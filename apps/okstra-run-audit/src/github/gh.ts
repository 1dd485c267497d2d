import { InputError, OkstraError, runProcess, type ProcessResult } from '@okstra/cli-kit';
import {
  ghSendProblems,
  IdentitySet,
  issueSearchArgs,
  machineIdentities,
  readMachineFacts,
  type GhIssue,
  type GhRunner,
  type GhStatus,
} from '@okstra/error-issue';

/**
 * The GitHub CLI, run as a subprocess with an argv array (never a shell) and
 * the caller's environment only (so `PATH` decides which `gh` runs; tests put
 * a recording stub there). Bodies go through stdin (`--body-file -`).
 */
export class GhCli implements GhRunner {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private run(args: string[], input?: string) {
    return runProcess('gh', args, { env: this.env, input });
  }

  /** `gh auth status`: not installed (ENOENT) or not authenticated (non-zero exit) → not ok, with a hint. */
  async status(): Promise<GhStatus> {
    const r = await this.run(['auth', 'status']);
    if (r.notFound) return { ok: false, reason: 'gh is not installed', hint: 'install the GitHub CLI (https://cli.github.com) and run gh auth login' };
    if (r.spawnError) return { ok: false, reason: `gh could not be started: ${r.spawnError}`, hint: 'check the gh found on PATH' };
    if (r.exitCode !== 0) return { ok: false, reason: 'gh is not authenticated', hint: 'run gh auth login' };
    return { ok: true };
  }

  /**
   * Issues of `repo` that a body search for `fp` returns (JSON output).
   * @throws OkstraError when gh fails or prints something that is not a JSON array.
   */
  async searchIssues(repo: string, fp: string): Promise<GhIssue[]> {
    const r = await this.run(issueSearchArgs(repo, fp));
    if (r.exitCode !== 0) throw new OkstraError('OKSTRA_GH_FAILED', `gh issue list ${ended(r)}: ${firstLine(r.stderr)}`);
    let value: unknown;
    try {
      value = JSON.parse(r.stdout);
    } catch {
      throw new OkstraError('OKSTRA_GH_FAILED', 'gh issue list did not print JSON');
    }
    if (!Array.isArray(value)) throw new OkstraError('OKSTRA_GH_FAILED', 'gh issue list did not print a JSON array');
    return value.filter((i): i is GhIssue => typeof i === 'object' && i !== null && Number.isInteger((i as GhIssue).number));
  }

  /** `gh issue create --repo R --title T --body-file -`; @returns the new issue's URL. */
  async createIssue(repo: string, title: string, body: string): Promise<string> {
    return this.send(['issue', 'create', '--repo', repo, '--title', title, '--body-file', '-'], body);
  }

  /** `gh issue comment N --repo R --body-file -`; @returns the comment's URL. */
  async comment(repo: string, issue: number, body: string): Promise<string> {
    return this.send(['issue', 'comment', String(issue), '--repo', repo, '--body-file', '-'], body);
  }

  private async send(args: string[], body: string): Promise<string> {
    // The last gate over the exact argv and stdin bytes, right before gh starts (docs/error-issue.md "The last gate").
    const problems = ghSendProblems(args, body, machineIdentities(readMachineFacts(this.env), new IdentitySet()));
    if (problems.length > 0) {
      throw new InputError(`last gate refused the gh ${args[1]} call (${problems.map((p) => `${p.field}: ${p.detector}`).join(', ')}): nothing was sent`);
    }
    const r = await this.run(args, body);
    if (r.exitCode !== 0) throw new OkstraError('OKSTRA_GH_FAILED', `gh ${args[0]} ${args[1]} ${ended(r)}: ${firstLine(r.stderr)}`);
    const url = r.stdout
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^https:\/\//.test(l))
      .pop();
    if (!url) throw new OkstraError('OKSTRA_GH_FAILED', `gh ${args[0]} ${args[1]} printed no URL`);
    return url;
  }
}

/** `exited 4`, `ended by SIGTERM` or `could not be started: …`. */
function ended(r: ProcessResult): string {
  if (r.exitCode !== null) return `exited ${r.exitCode}`;
  if (r.signal) return `ended by ${r.signal}`;
  return r.notFound ? 'could not be started: gh is not installed' : `could not be started: ${r.spawnError}`;
}

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '(no output)'
  );
}
