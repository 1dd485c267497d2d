import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { JourneyProject } from './project.js';
import { fill, lineOf, REPO_ROOT, type LineMatch, type Values } from './texts.js';

/** The built umbrella bin: journeys run what ships. */
export const OKSTRA_BIN = join(REPO_ROOT, 'apps/okstra/dist/bin.js');

/** One command a journey ran: where the text gave it, the argv, and what came back. */
export interface Step {
  source: string;
  argv: string[];
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A scripted lead: it runs, one at a time, command lines it picks from the texts (never typed here), with the
 * placeholders filled from the run and from what earlier commands printed, through the built `okstra` bin.
 * Every step is kept, so a failing journey shows the whole path.
 */
export class Lead {
  readonly steps: Step[] = [];
  readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly p: JourneyProject,
    env: NodeJS.ProcessEnv = {},
  ) {
    this.env = { ...process.env, HOME: p.home, OKSTRA_TMUX_SOCKET: p.socket, OKSTRA_TEAM_POLL_MS: '100', TMUX: '', TMUX_PANE: '', ...env };
  }

  /** The run's own placeholder values (prompts/lead/okstra-tools.md "Placeholders"). */
  get values(): Record<string, string> {
    const p = this.p;
    return {
      '<root>': p.root,
      '<run>': join(p.root, p.run),
      '<type>': p.taskType,
      '<seq>': p.seq,
      '<manifest>': p.manifest,
      '<team-state>': p.teamState,
      '<task-key>': p.taskKey,
    };
  }

  /**
   * Run the line of `file` that `match` picks, its placeholders filled with the run's values and `values`.
   * @returns the step; throws (naming the text line and showing the output) when the exit code is not `expect`.
   */
  // The JSON a command printed, as the lead reads it: its shape is the command's (docs/), not this harness's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run(file: string, match: LineMatch, values: Values = {}, expect: number | readonly number[] = 0): Step & { json: any } {
    const line = lineOf(file, match);
    const argv = fill(line, { ...this.values, ...values });
    const r = spawnSync(process.execPath, [OKSTRA_BIN, ...argv], { cwd: this.p.root, env: this.env, encoding: 'utf8', maxBuffer: 64 << 20 });
    const step: Step = { source: `${file}:${line.line}`, argv, code: r.status ?? 128, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
    this.steps.push(step);
    const ok = Array.isArray(expect) ? expect.includes(step.code) : step.code === expect;
    if (!ok)
      throw new Error(
        `${step.source}: 'okstra ${argv.join(' ')}' exited ${step.code} (expected ${String(expect)})\nstderr: ${step.stderr}\nstdout: ${step.stdout.slice(0, 4000)}`,
      );
    let json: unknown = null;
    try {
      json = step.stdout.trim() ? JSON.parse(step.stdout) : null;
    } catch {
      json = null;
    }
    return { ...step, json };
  }

  /** The path of a run file, absolute. */
  abs(rel: string): string {
    return join(this.p.root, rel);
  }
}
