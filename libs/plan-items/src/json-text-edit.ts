import { applyEdits, modify, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { InputError } from '@okstra/core';

/** One value to set in a JSON text: its path (object keys and array indexes) and the new value. */
export interface JsonTextEdit {
  path: Array<string | number>;
  value: unknown;
}

/**
 * Set values in a JSON document's TEXT and keep every other byte as written
 * (docs/plan-items.md "Aggregate rules"): numbers such as `12345678901234567890`,
 * `1e3` or `-0.0`, string escapes, key order, the file's indentation (spaces or
 * tabs), line ends and final newline. Only the text of each edited value changes:
 * - a value whose current content already equals the new one (same JSON, same
 *   key order) is not touched at all, so re-applying an edit is byte-identical;
 * - a replaced value is written as `JSON.stringify` with the file's indentation
 *   unit, its lines indented like the line its old value started on (a file
 *   with no line break gets the value on one line);
 * - a missing key is added at the end of its object (jsonc-parser `modify`).
 * The parse tree comes from jsonc-parser, a scanner that keeps source offsets.
 * @param text a document that `JSON.parse` accepts (checked by the caller).
 * @param label names the file in errors.
 * @throws InputError naming the JSON path when a key on an edited path occurs
 *   twice in its object (`JSON.parse` keeps the last, a text edit could hit
 *   the other), or when the path does not lead to an object or array.
 */
export function editJsonText(text: string, edits: readonly JsonTextEdit[], label?: string): string {
  const style = detectStyle(text);
  const root = parseTree(text);
  if (!root) throw new InputError('is not valid JSON', { file: label });
  const replacements: Array<{ offset: number; length: number; content: string }> = [];
  const inserts: JsonTextEdit[] = [];
  for (const edit of edits) {
    const node = locate(root, edit.path, label);
    if (node === undefined) {
      inserts.push(edit);
      continue;
    }
    const current = text.slice(node.offset, node.offset + node.length);
    if (sameJson(current, edit.value)) continue;
    replacements.push({ offset: node.offset, length: node.length, content: render(edit.value, style, lineIndent(text, node.offset)) });
  }
  let out = applyEdits(text, replacements);
  for (const edit of inserts) {
    const formattingOptions =
      style.unit === null ? undefined : { insertSpaces: style.unit !== '\t', tabSize: style.unit === '\t' ? 1 : style.unit.length, eol: style.eol };
    out = applyEdits(out, modify(out, edit.path, edit.value, { formattingOptions }));
  }
  return out;
}

/** The file's indentation unit (null: no line breaks, write values on one line) and line end. */
function detectStyle(text: string): { unit: string | null; eol: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (!/[\r\n]/.test(text.trimEnd())) return { unit: null, eol };
  const indented = /(?:^|\n)([ \t]+)\S/.exec(text);
  const lead = indented ? indented[1] : '  ';
  return { unit: lead.startsWith('\t') ? '\t' : lead, eol };
}

function render(value: unknown, style: { unit: string | null; eol: string }, indent: string): string {
  if (style.unit === null) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit)
    .split('\n')
    .join(style.eol + indent);
}

/** The leading whitespace of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = Math.max(text.lastIndexOf('\n', offset - 1) + 1, 0);
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

function sameJson(current: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(current)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * The node at `path`, or undefined when only its last key is missing from an
 * existing object (an insertion).
 */
function locate(root: JsonNode, path: ReadonlyArray<string | number>, label?: string): JsonNode | undefined {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const here = jsonPath(path.slice(0, i + 1));
    let next: JsonNode | undefined;
    if (typeof seg === 'number') {
      if (node.type !== 'array') throw new InputError('expected an array', { file: label, field: jsonPath(path.slice(0, i)) || undefined });
      next = node.children?.[seg];
    } else {
      if (node.type !== 'object') throw new InputError('expected an object', { file: label, field: jsonPath(path.slice(0, i)) || undefined });
      const props = (node.children ?? []).filter((p) => p.children?.[0]?.value === seg);
      if (props.length > 1) throw new InputError(`key "${seg}" occurs ${props.length} times in one object (ambiguous)`, { file: label, field: here });
      next = props[0]?.children?.[1];
    }
    if (next === undefined) {
      if (i === path.length - 1 && typeof seg === 'string') return undefined;
      throw new InputError('not found', { file: label, field: here });
    }
    node = next;
  }
  return node;
}

function jsonPath(path: ReadonlyArray<string | number>): string {
  return path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join('');
}
