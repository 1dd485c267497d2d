import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCommandLine } from './check.js';
import { corpusCommandLines, REPO_ROOT } from './corpus.js';
import type { CommandLine } from './markdown.js';

const where = (c: CommandLine) => `${c.file}:${c.line}: \`${c.text}\``;

/** Every problem of every command line under `root`, as `file:line: text: problem`. */
function problemsUnder(root: string): string[] {
  return corpusCommandLines(root).flatMap((c) => checkCommandLine(c).map((p) => `${where(c)}: ${p}`));
}

describe('okstra command lines in prompts/ and skills/', () => {
  const lines = corpusCommandLines();

  it('finds the command lines the adapters and flows are built on', () => {
    const texts = lines.map((l) => l.words.slice(0, 3).join(' '));
    for (const expected of [
      'okstra team dispatch',
      'okstra team await',
      'okstra team teardown',
      'okstra worker-liveness --team-state',
      'okstra convergence collect-results',
      'okstra convergence run',
      'okstra convergence render-prompts',
      'okstra plan-items collect-verdicts',
      'okstra worker-audit-check --run-dir',
      'okstra run-audit --project-root',
      'okstra error-issue submit',
    ]) {
      expect(
        texts.some((t) => t.startsWith(expected)),
        `no command line starts with '${expected}'`,
      ).toBe(true);
    }
  });

  it('parses every one against the real commander definitions', () => {
    expect(problemsUnder(REPO_ROOT)).toEqual([]);
  });
});

describe('the check fails with file and line', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'prompt-contract-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('on a bad flag planted in a temp copy of the real texts', () => {
    cpSync(join(REPO_ROOT, 'prompts'), join(tmp, 'prompts'), { recursive: true });
    cpSync(join(REPO_ROOT, 'skills'), join(tmp, 'skills'), { recursive: true });
    const file = join(tmp, 'prompts/lead/adapters/external.md');
    const text = readFileSync(file, 'utf8');
    const at = text.split('\n').findIndex((l) => l.startsWith('okstra team await --project-root'));
    expect(at, 'external.md has a fenced team await line').toBeGreaterThan(0);
    writeFileSync(file, text.replace('okstra team await --project-root', 'okstra team await --follow --project-root'));
    expect(problemsUnder(tmp)).toEqual([
      `prompts/lead/adapters/external.md:${at + 1}: \`okstra team await --follow --project-root <root> --run-manifest <manifest> --json\`: unknown flag '--follow' for 'okstra team await' (known: --project-root, --run-manifest, --deadline, --dispatch-kind, --json, --quiet, --output)`,
    ]);
  });

  it.each<[string, string]>([
    ['a fence line under timeout', '```sh\ntimeout 240 okstra worker-liveness --team-state <t> --worker <id> --stall-wait 200\n```'],
    ['a fence line under env', '```sh\nenv OKSTRA_DEBUG=1 okstra team await --project-root <r> --run-manifest <m> --follow\n```'],
    ['a fence line after &&', '```sh\ncd <root> && okstra run-audit --project-root <root> --bogus\n```'],
    ['a fence line after a pipe', '```sh\ncat x | okstra run-audit --project-root <root> --bogus\n```'],
    ['a subshell in a fence', '```sh\n(okstra team teardown --project-root <r> --run-manifest <m> --purge)\n```'],
    ['a substitution in a fence', '```sh\nv="$(okstra convergence validate --kind final --state <s> --bogus)"\n```'],
    ['an inline span in parentheses', 'Reclaim the panes (`(okstra team teardown --project-root <r> --run-manifest <m> --purge)`).'],
    ['an inline span under timeout', 'Run `timeout 240 okstra worker-liveness --team-state <t> --worker <id> --stall-wait 200`.'],
  ])('on a bad flag planted in %s', (_name, text) => {
    const root = join(tmp, 'planted', _name.replace(/\W+/g, '-'));
    mkdirSync(join(root, 'prompts'), { recursive: true });
    writeFileSync(join(root, 'prompts/p.md'), `# planted\n\n${text}\n`);
    const problems = problemsUnder(root);
    expect(problems[0]).toMatch(/^prompts\/p\.md:[34]: .*unknown flag '--(stall-wait|follow|bogus|purge)'/);
  });

  const cases: Array<[string, string[], 'fence' | 'inline', string]> = [
    ['unknown tool word', ['okstra', 'convergance', 'seed'], 'fence', "unknown okstra command 'convergance'"],
    ['unknown sub-command', ['okstra', 'team', 'dispach'], 'fence', "unknown sub-command 'dispach' of 'okstra team'"],
    ['unknown nested sub-command', ['okstra', 'error-issue', 'send', '--plan', 'p'], 'fence', "unknown sub-command 'send' of 'okstra error-issue'"],
    ['missing required flag', ['okstra', 'team', 'await', '--project-root', 'r'], 'fence', "missing required flag '--run-manifest' of 'okstra team await'"],
    [
      'missing mandatory choice flag',
      ['okstra', 'convergence', 'validate', '--state', 's'],
      'fence',
      "missing required flag '--kind' of 'okstra convergence validate'",
    ],
    ['wrong choice value', ['okstra', 'convergence', 'example', '--kind', 'plan'], 'fence', "'plan' is not a choice of --kind of 'okstra convergence example'"],
    [
      'wrong choice in a placeholder',
      ['okstra', 'convergence', 'validate', '--state', 's', '--kind', '<working|draft>'],
      'fence',
      "'draft' is not a choice of --kind",
    ],
    [
      'flag without its value',
      ['okstra-team', 'dispatch', '--project-root', 'r', '--run-manifest'],
      'fence',
      "flag '--run-manifest' of 'okstra-team dispatch' needs a value",
    ],
    ['unexpected operand', ['okstra', 'plan-items', 'extract', 'data.json', '--data', 'd', '--output', 'o'], 'fence', "unexpected argument 'data.json'"],
    ['unknown bin', ['okstra-teams', 'dispatch'], 'fence', "unknown bin 'okstra-teams'"],
    ['bare reference in a fence', ['okstra', 'team', 'await'], 'fence', "missing required flag '--project-root'"],
  ];
  it.each(cases)('%s', (_name, words, origin, expected) => {
    const problems = checkCommandLine({ words, origin });
    expect(problems.join('\n')).toContain(expected);
  });

  it('accepts an inline reference, the umbrella run-audit default, placeholders and the runtime allowlist', () => {
    expect(checkCommandLine({ words: ['okstra', 'team', 'await'], origin: 'inline' })).toEqual([]);
    expect(checkCommandLine({ words: ['okstra-run-audit', '--json'], origin: 'fence' })).toEqual([]);
    expect(
      checkCommandLine({
        words: [
          'okstra',
          'convergence',
          'collect-results',
          '--plan',
          '<plan>',
          '--mode',
          '<adversarial|collaborative>',
          '--result',
          '<worker>=<path>…',
          '--output',
          '<out>',
        ],
        origin: 'fence',
      }),
    ).toEqual([]);
    expect(checkCommandLine({ words: ['okstra', 'render-bundle', '<args…>'], origin: 'fence' })).toEqual([]);
  });
});
