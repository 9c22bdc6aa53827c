import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The renderers: Discord's (src/interactions/render/) and the terminal's (src/cli/render-*). */
const RENDERERS = [
  ...readdirSync(path.join(ROOT, 'src/interactions/render')).map((name) => `src/interactions/render/${name}`),
  ...readdirSync(path.join(ROOT, 'src/cli'))
    .filter((name) => name.startsWith('render-'))
    .map((name) => `src/cli/${name}`),
].filter((file) => file.endsWith('.ts'));

/** Each import of `file` that brings a value (not only types) from src/search/ or src/factcheck/. */
function valueImportsFromTheCore(file: string): string[] {
  const program = parseSync(readFileSync(path.join(ROOT, file), 'utf8'), { syntax: 'typescript' });
  const found: string[] = [];
  for (const item of program.body) {
    if (item.type !== 'ImportDeclaration') continue;
    const target = path.posix.join(path.posix.dirname(file), item.source.value);
    if (!/^src\/(search|factcheck)\//.test(target)) continue;
    if (item.typeOnly) continue;
    for (const specifier of item.specifiers) {
      const typeOnly = specifier.type === 'ImportSpecifier' && specifier.isTypeOnly;
      if (!typeOnly) found.push(`${file}: ${specifier.local.value} from ${target}`);
    }
  }
  return found;
}

// dependency-cruiser (the `renderers-only-render` rule) keeps renderers to the modules declaring what
// they render; its swc parser does not tell type-only imports apart, which this checks with swc's AST.
describe('the renderers', () => {
  it('are found', () => {
    expect(RENDERERS).toEqual(
      expect.arrayContaining(['src/interactions/render/answer.ts', 'src/cli/render-answer.ts']),
    );
  });

  it('import only types from src/search/ and src/factcheck/: they render the reply they are given', () => {
    expect(RENDERERS.flatMap(valueImportsFromTheCore)).toEqual([]);
  });
});
