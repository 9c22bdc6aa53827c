/** A `key: value` line of front matter, with the line it was on. */
export interface FrontMatterField {
  key: string;
  value: string;
  line: number;
}

export interface FrontMatter {
  fields: FrontMatterField[];
  /** The text after the closing `---`. */
  body: string;
  /** Line of the source on which `body` starts (1-based). */
  bodyLine: number;
  /** Lines that are not `key: value`, with their line numbers. */
  malformed: { line: number; text: string }[];
}

/**
 * Reads the flat front matter that articles use: `key: value` lines between `---` fences, values
 * optionally in single or double quotes, `#` comments. Nested YAML is deliberately not supported:
 * article metadata is flat, and a small reader gives exact line numbers for every error.
 * Returns `undefined` when the text does not open with a fence.
 */
export function readFrontMatter(text: string): FrontMatter | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  const fields: FrontMatterField[] = [];
  const malformed: FrontMatter['malformed'] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '---') {
      return { fields, malformed, body: lines.slice(i + 1).join('\n'), bodyLine: i + 2 };
    }
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!match) {
      malformed.push({ line: i + 1, text: line });
      continue;
    }
    fields.push({ key: match[1]!, value: unquote(match[2]!.trim()), line: i + 1 });
  }
  // Without its closing fence nothing after the opening one can be told apart: report that alone.
  return {
    fields: [],
    malformed: [{ line: 1, text: 'front matter opened here is not closed by a `---` line' }],
    body: '',
    bodyLine: lines.length + 1,
  };
}

function unquote(value: string): string {
  const quoted = /^(['"])(.*)\1$/.exec(value);
  if (!quoted) return value;
  return quoted[1] === '"' ? quoted[2]!.replace(/\\"/g, '"') : quoted[2]!.replace(/''/g, "'");
}
