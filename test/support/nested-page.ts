/**
 * The attack page of issue 31: a short news story inside `depth` nested `<div>`s (about 16 KB at
 * 1,500). Readability's cost grows with the cube of the depth.
 */
export function nestedPage(depth: number): string {
  const paragraphs = [1, 2, 3, 4]
    .map(
      (i) =>
        `<p>Paragraph ${i} of the report: the council met on Tuesday evening and agreed, after a long debate, to fund the repair of the harbour wall before the winter storms.</p>`,
    )
    .join('');
  return `<!doctype html><html><head><title>Harbour wall to be repaired</title></head><body>${'<div>'.repeat(depth)}${paragraphs}${'</div>'.repeat(depth)}</body></html>`;
}
