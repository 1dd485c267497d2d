/**
 * Split one shell line into its simple commands' words: quotes and
 * backslashes removed, `&&`, `||`, `;`, `|`, `&` and subshell parentheses
 * separating commands, `#` comments dropped, redirections (`> f`, `2>&1`,
 * `>> f`, `< f`) and leading `VAR=value` assignments, `if`/`then`/`!`/`time`/
 * `command` keywords and command wrappers (`timeout [opts] N`, `env [opts]
 * X=Y…`, `nohup`, `nice [-n N]`, `sudo`) removed, so an `okstra …` is found
 * wherever a shell would run it. Prompt placeholders are words: `<a|b>` never
 * splits at its `|` and `<path>` is not a redirection. A command substitution
 * (`$(…)` or backticks) stays inside its word, and its inner commands are
 * returned too, after the command that holds them.
 * Never throws: an unterminated quote ends at the end of the line.
 */
export function splitShellLine(line: string): string[][] {
  const commands: string[][] = [];
  const inner: string[][] = [];
  let subshells = 0;
  let words: string[] = [];
  let word: string | undefined;
  const push = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const end = () => {
    push();
    commands.push(clean(words));
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const stop = close < 0 ? line.length : close;
      word = (word ?? '') + (c === '"' ? line.slice(i + 1, stop).replace(/\\(["\\$`])/g, '$1') : line.slice(i + 1, stop));
      if (c === '"') inner.push(...substitutions(line.slice(i + 1, stop)));
      i = stop;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (c === '<' && /[A-Za-z…]/.test(line[i + 1] ?? '') && line.indexOf('>', i) > 0) {
      const close = line.indexOf('>', i);
      word = (word ?? '') + line.slice(i, close + 1);
      i = close;
    } else if (c === '$' && line[i + 1] === '(') {
      let depth = 0;
      let j = i + 1;
      for (; j < line.length; j++) {
        if (line[j] === '(') depth++;
        else if (line[j] === ')' && --depth === 0) break;
      }
      word = (word ?? '') + line.slice(i, j + 1);
      inner.push(...splitShellLine(line.slice(i + 2, j)));
      i = j;
    } else if (c === '`') {
      const close = line.indexOf('`', i + 1);
      const stop = close < 0 ? line.length : close;
      word = (word ?? '') + line.slice(i, stop + 1);
      inner.push(...splitShellLine(line.slice(i + 1, stop)));
      i = stop;
    } else if (c === '(' && word === undefined) {
      subshells++; // a subshell: `(okstra team teardown …)`
      end();
    } else if (c === ')' && subshells > 0) {
      subshells--;
      end();
    } else if (c === '#' && word === undefined) {
      break;
    } else if (c === ' ' || c === '\t') {
      push();
    } else if (c === ';' || c === '|' || c === '&') {
      if (c === '&' && (line[i - 1] === '>' || line[i + 1] === '>')) {
        word = (word ?? '') + c; // `2>&1`, `&>`: part of a redirection
        continue;
      }
      if (line[i + 1] === c) i++;
      end();
    } else {
      word = (word ?? '') + c;
    }
  }
  end();
  return [...commands, ...inner].filter((w) => w.length > 0);
}

const REDIRECT_WITH_TARGET = /^(\d*>>?|&>>?|<)$/;
const REDIRECT_INLINE = /^(\d*>>?|&>>?|<)\S+$|^\d*>&\d+$/;
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'time', 'command', 'exec', 'nohup', 'sudo', '{']);

/** How many words a leading command wrapper takes before the command it runs (0: not a wrapper). */
function wrapperLength(words: string[], at: number): number {
  const head = words[at];
  let i = at + 1;
  if (head === 'timeout') {
    while (i < words.length && words[i].startsWith('-')) i += /^(-s|-k|--signal|--kill-after)$/.test(words[i]) ? 2 : 1;
    return i + 1 - at; // the duration
  }
  if (head === 'env') {
    while (i < words.length && (words[i].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]))) i += /^(-u|-C|--unset|--chdir)$/.test(words[i]) ? 2 : 1;
    return i - at;
  }
  if (head === 'nice') return words[i] === '-n' ? 3 : /^-/.test(words[i] ?? '') ? 2 : 1;
  return 0;
}

function clean(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const wrapper = out.length === 0 ? wrapperLength(words, i) : 0;
    if (wrapper > 0) {
      i += wrapper - 1;
      continue;
    }
    if (REDIRECT_WITH_TARGET.test(w)) {
      i++;
      continue;
    }
    if (REDIRECT_INLINE.test(w) && !/^<[A-Za-z…]/.test(w)) continue;
    if (out.length === 0 && (KEYWORDS.has(w) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w))) continue;
    out.push(w);
  }
  return out;
}

/** The commands of every `$(…)` and backtick substitution inside a double-quoted string. */
function substitutions(quoted: string): string[][] {
  const out: string[][] = [];
  for (const m of quoted.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g)) out.push(...splitShellLine(m[1] ?? m[2]));
  return out;
}
