import { memoryIo, type CliContext, type CommandUnknownOpts as Command } from '@okstra/cli-kit';
import { createProgram as convergence } from 'okstra-convergence/program';
import { createProgram as planItems } from 'okstra-plan-items/program';
import { createProgram as liveness } from 'okstra-worker-liveness/program';
import { createProgram as runAudit } from 'okstra-run-audit/program';
import { createProgram as team } from 'okstra-team/program';
// The umbrella's word → bin table is not a package export; it is read from its
// source so the contract follows the real routing, never a copy of it.
import { OWN_COMMANDS, ROUTES, RUNTIME_WORDS } from 'okstra';
import { createProgram as umbrella } from 'okstra/program';

/** A tool bin's commander program factory, as each app exports it from its main module. */
export type ProgramFactory = (ctx: CliContext) => Command;

/** The tool bins' program factories and the umbrella's own, keyed by bin name. */
export const BINS: Readonly<Record<string, ProgramFactory>> = {
  'okstra-convergence': convergence,
  'okstra-plan-items': planItems,
  'okstra-worker-liveness': liveness,
  'okstra-run-audit': runAudit,
  'okstra-team': team,
  // the umbrella's own commands (`okstra install`, `okstra completion`)
  okstra: umbrella,
};

/** Commands of the wider okstra runtime that prompts and skills may name: the umbrella's own list, never a copy. */
export const RUNTIME_ALLOWLIST: readonly string[] = RUNTIME_WORDS;

/** Where an `okstra …` / `okstra-<bin> …` line goes: the bin and its argv, or an allowlisted runtime word. */
export type Resolution =
  | { kind: 'tool'; bin: string; args: string[]; display: string }
  | { kind: 'runtime'; word: string }
  | { kind: 'umbrella' }
  | { kind: 'error'; message: string };

/**
 * Resolve a command line's words through the umbrella's ROUTES (word → bin,
 * prefix words kept) or directly as a bin. Unknown words are errors naming
 * the known ones.
 */
export function resolveCommand(words: readonly string[]): Resolution {
  const [head, word, ...rest] = words;
  if (head === 'okstra') {
    if (word === undefined || ['--help', '-h', '--version', '-V'].includes(word)) return { kind: 'umbrella' };
    const route = ROUTES.find((r) => r.word === word);
    // With prefix words the walk down the program adds the word itself (`okstra` + `error-issue`).
    if (route) return { kind: 'tool', bin: route.pkg, args: [...route.prefix, ...rest], display: route.prefix.length > 0 ? 'okstra' : `okstra ${word}` };
    if (OWN_COMMANDS.some((c) => c.word === word)) return { kind: 'tool', bin: 'okstra', args: [word, ...rest], display: 'okstra' };
    if (RUNTIME_ALLOWLIST.includes(word)) return { kind: 'runtime', word };
    return {
      kind: 'error',
      message: `unknown okstra command '${word}' (tools: ${ROUTES.map((r) => r.word).join(', ')}; runtime allowlist: ${RUNTIME_ALLOWLIST.join(', ')})`,
    };
  }
  if (head in BINS) return { kind: 'tool', bin: head, args: words.slice(1), display: head };
  return { kind: 'error', message: `unknown bin '${head}' (known: ${Object.keys(BINS).join(', ')})` };
}

/** A fresh program of `bin` built on a throwaway memory io (nothing is run). */
export function buildProgram(bin: string): Command {
  const io = memoryIo();
  return BINS[bin]({ io, name: bin, version: '0.0.0', exitCode: 0 });
}
