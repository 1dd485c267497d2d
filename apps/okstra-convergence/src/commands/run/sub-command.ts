import type { CliContext } from '@okstra/cli-kit';

/** What one in-process sub-command call gave: its exit code, its stdout parsed as JSON, and its stderr lines. */
export interface SubResult {
  code: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each command's own --json shape
  notes: string[];
}

/**
 * Run one okstra command (`runPlanRound`, `runApplyRound`, …) in-process, exactly as its bin
 * would, with stdout captured and parsed (every one prints one JSON document) and stderr
 * kept as notes, never forwarded: `run` reports each step once, through its own progress reporter
 * (a forwarded note beside run's line showed every step twice on a terminal).
 * Errors it throws (InputError, …) propagate: `run` fails as that command would. `cwd` is the
 * directory relative arguments are read from (run passes the project root, as a lead's commands are typed).
 */
export async function callCommand<O>(ctx: CliContext, fn: (opts: O, ctx: CliContext) => Promise<number>, opts: O, cwd = ctx.io.cwd): Promise<SubResult> {
  let out = '';
  const notes: string[] = [];
  const sub: CliContext = {
    ...ctx,
    io: {
      ...ctx.io,
      cwd,
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: {
        write: (s: string) => {
          for (const line of s.split('\n')) if (line.trim() !== '' && !line.startsWith('\r')) notes.push(line);
          return true;
        },
      },
    },
  };
  const code = await fn(opts, sub);
  let json: unknown = null;
  try {
    json = out.trim() === '' ? null : JSON.parse(out);
  } catch {
    json = null;
  }
  return { code, json, notes };
}
