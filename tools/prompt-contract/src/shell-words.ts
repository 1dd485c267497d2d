/**
 * Split one shell line into its simple commands' words: quotes and
 * backslashes removed, `&&`, `||`, `;`, `|` and `&` separating commands,
 * `#` comments dropped, redirections (`> f`, `2>&1`, `>> f`, `< f`) and
 * leading `VAR=value` assignments and `if`/`then`/`!`/`time`/`command`
 * keywords removed. Prompt placeholders are words: `<a|b>` never splits at
 * its `|` and `<path>` is not a redirection. `$(…)` stays inside its word.
 * Never throws: an unterminated quote ends at the end of the line.
 */
export function splitShellLine(line: string): string[][] {
  const commands: string[][] = [];
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
      i = j;
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
  return commands.filter((w) => w.length > 0);
}

const REDIRECT_WITH_TARGET = /^(\d*>>?|&>>?|<)$/;
const REDIRECT_INLINE = /^(\d*>>?|&>>?|<)\S+$|^\d*>&\d+$/;
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'time', 'command', 'exec']);

function clean(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
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
