import { describe, expect, it } from 'vitest';
import { extractCommandLines, extractExampleBlocks } from './markdown.js';
import { splitShellLine } from './shell-words.js';

describe('splitShellLine', () => {
  it.each<[string, string[][]]>([
    [
      'okstra team await --json 2>&1 | tee log',
      [
        ['okstra', 'team', 'await', '--json'],
        ['tee', 'log'],
      ],
    ],
    ['if okstra worker-liveness --json > out.json; then echo ok; fi', [['okstra', 'worker-liveness', '--json'], ['echo', 'ok'], ['fi']]],
    [
      'TZ=UTC command cp a b && okstra run-audit --json',
      [
        ['cp', 'a', 'b'],
        ['okstra', 'run-audit', '--json'],
      ],
    ],
    [
      'okstra convergence validate --kind <working|final> --state "<a path>"',
      [['okstra', 'convergence', 'validate', '--kind', '<working|final>', '--state', '<a path>']],
    ],
    ["okstra worker-state transition --reason 'it hung; twice' # why", [['okstra', 'worker-state', 'transition', '--reason', 'it hung; twice']]],
    ['okstra x --jobs-file <run>/state/reverify-jobs-r<N>.json < in', [['okstra', 'x', '--jobs-file', '<run>/state/reverify-jobs-r<N>.json']]],
  ])('%s', (line, expected) => {
    expect(splitShellLine(line)).toEqual(expected);
  });
});

describe('extractCommandLines', () => {
  const md = [
    '# t', //1
    '', //2
    'Run `okstra team await` then `okstra-inspect` and `okstra-team dispatch --dry-run`.', //3
    '', //4
    '```sh', //5
    '$ okstra team dispatch \\', //6
    '    --project-root <root> --run-manifest <m>', //7
    'echo done', //8
    '```', //9
    '', //10
    '```json', //11
    '"okstra team teardown"', //12
    '```', //13
    '', //14
    '| Op | Run |', //15
    '|---|---|', //16
    '| a | `okstra convergence validate --kind <working\\|final> --state s` |', //17
  ].join('\n');

  it('takes shell fences (continuations joined, prompt stripped), inline spans and table cells; skips skill names and non-shell fences', () => {
    expect(extractCommandLines(md, 'f.md').map((c) => [c.line, c.origin, c.words.join(' ')])).toEqual([
      [3, 'inline', 'okstra team await'],
      [3, 'inline', 'okstra-team dispatch --dry-run'],
      [6, 'fence', 'okstra team dispatch --project-root <root> --run-manifest <m>'],
      [17, 'inline', 'okstra convergence validate --kind <working|final> --state s'],
    ]);
  });

  it('finds example blocks by their info string, with the first content line', () => {
    const text = 'x\n\n```markdown example=plan-verdicts\n### P-Opt-1\n```\n\n```text\nnot one\n```\n';
    expect(extractExampleBlocks(text, 'f.md')).toEqual([{ file: 'f.md', line: 4, kind: 'plan-verdicts', value: '### P-Opt-1' }]);
  });
});

describe('splitShellLine finds okstra wherever a shell would run it', () => {
  it.each<[string, string[]]>([
    ['timeout 240 okstra worker-liveness --stall-wait 200', ['okstra', 'worker-liveness', '--stall-wait', '200']],
    ['timeout -k 5 -s TERM 240s okstra run-audit --json', ['okstra', 'run-audit', '--json']],
    ['env OKSTRA_DEBUG=1 -u HOME okstra team await --json', ['okstra', 'team', 'await', '--json']],
    ['nohup nice -n 5 okstra team await', ['okstra', 'team', 'await']],
    ['(okstra team teardown --purge)', ['okstra', 'team', 'teardown', '--purge']],
    ['cd x && (cd y; okstra team teardown --purge) || true', ['okstra', 'team', 'teardown', '--purge']],
    ['echo "$(okstra convergence validate --bogus)"', ['okstra', 'convergence', 'validate', '--bogus']],
    ['out=`okstra plan-items extract --bogus`', ['okstra', 'plan-items', 'extract', '--bogus']],
    ['ls | okstra run-audit --bogus', ['okstra', 'run-audit', '--bogus']],
  ])('%s', (line, expected) => {
    expect(splitShellLine(line)).toContainEqual(expected);
  });
});
