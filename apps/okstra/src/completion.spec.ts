// `okstra completion bash|zsh` through the real bin: the script, sourced in a real bash, completes command
// words and options read from the tools' own commander definitions.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { runBin } from '@okstra/core/test-support';

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const script = runBin(bin, ['completion', 'bash'], {}).stdout;

/** What bash offers for the typed `words` (the last one being completed). */
function complete(words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync(
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `eval "$SCRIPT"\nCOMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _okstra_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH, SCRIPT: script } },
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('okstra completion', () => {
  it('bash: tool words, sub-commands and their options, as the programs define them', () => {
    expect(complete(['okstra', 'ins'])).toEqual(['install']);
    expect(complete(['okstra', 'co'])).toEqual(['completion', 'convergence']);
    expect(complete(['okstra', 'convergence', 'se'])).toEqual(['seed']);
    expect(complete(['okstra', 'convergence', 'seed', '--gr'])).toEqual(['--groups']);
    // after an option that takes a value, the next word is that value, then options again
    expect(complete(['okstra', 'convergence', 'seed', '--groups', 'g.json', '--wo'])).toEqual(['--work-state']);
    expect(complete(['okstra-convergence', 'view', '--ht'])).toEqual(['--html']);
    expect(complete(['okstra', 'run-audit', '--pro'])).toEqual(['--project-root']);
    expect(complete(['okstra', 'error-issue', 'su'])).toEqual(['submit']);
    expect(complete(['okstra', 'install', '--ru'])).toEqual(['--runtime']);
    expect(complete(['okstra', 'help', 'env'])).toEqual(['environment']);
  });

  it('zsh: the same function behind bashcompinit; an unknown shell is exit 2', () => {
    const zsh = runBin(bin, ['completion', 'zsh'], {});
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef okstra /);
    expect(zsh.stdout).toContain('bashcompinit');
    expect(zsh.stdout).toContain(script);
    const fish = runBin(bin, ['completion', 'fish'], {});
    expect(fish.code).toBe(2);
    expect(fish.stderr).toBe("okstra: completion: 'fish' is not a shell okstra completes (bash, zsh)\n");
  });
});
