import { action, createBaseProgram, Option, runCli, type CliContext, type Command, type Io } from '@okstra/cli-kit';
import { OWN_COMMANDS } from './own-words.js';

/** Run `okstra install …` / `okstra completion …` (argv starts with the word). */
export function runOwn(argv: readonly string[], io: Io, version: string): Promise<number> {
  return runCli({ name: 'okstra', version, createProgram }, argv, io);
}

/**
 * Argument definitions of the umbrella's own commands, `okstra install` (docs/install.md) and
 * `okstra completion` (docs/completion.md). The work is imported lazily.
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'okstra: the umbrella of the okstra tools');
  program
    .command('install')
    .description(OWN_COMMANDS[0].summary)
    .addHelpText(
      'after',
      [
        '',
        'Claude Code: ~/.claude/skills/<skill>/ (--scope project: <project>/.claude/skills/); Codex: ~/.agents/skills/<skill>/',
        '(project: .agents/skills/); Antigravity: ~/.gemini/antigravity/skills/<skill>/ (project: .agents/skills/);',
        'the lead and worker texts: ~/.okstra/prompts/ ($OKSTRA_HOME/prompts/). Recorded in ~/.okstra/install-manifest.json.',
        '',
        'Exit codes: 0 installed (--check: no drift), 1 --check found drift or nothing installed, 2 bad input or a file that',
        "cannot be installed (changed by hand, not okstra's, a symlink): then nothing is written.",
        '',
        'Examples:',
        '  okstra install --runtime claude-code --dry-run',
        '  okstra install --check',
      ].join('\n'),
    )
    .addOption(
      new Option(
        '--runtime <host>',
        'auto, all, claude-code, codex or antigravity (auto: codex always, claude-code when ~/.claude exists, antigravity when ~/.gemini exists)',
      ).default('auto'),
    )
    .addOption(new Option('--scope <scope>', "user (the home directory's skill folders) or project").choices(['user', 'project']).default('user'))
    .option('--project-root <dir>', 'the project for --scope project (default: the current directory)')
    .option('--dry-run', 'say what would be written; write nothing')
    .option('--force', 'also replace files changed by hand or not written by okstra install')
    .option('--check', 'report whether the installed texts match this okstra (exit 1 on drift); writes nothing')
    .option('--json', 'print one JSON document')
    .action(action(ctx, async (opts) => (await import('../install/install.js')).runInstall(opts, ctx)));
  program
    .command('completion')
    .description(OWN_COMMANDS[1].summary)
    .argument('<shell>', 'bash or zsh')
    .addHelpText('after', '\nExamples:\n  source <(okstra completion bash)\n  okstra completion zsh > "${fpath[1]}/_okstra"')
    .action(action(ctx, async (shell) => (await import('../completion/completion.js')).runCompletion(shell, ctx, createProgram)));
  return program;
}
