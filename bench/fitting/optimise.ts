/** The numerical pieces every step of the fit shares: gradient descent, log loss, rounding. */

/** The L2 strengths each cross-validation tries. */
export const L2 = [1e-3, 1e-2, 0.1, 0.3];

/** One example of a logistic model: its features (a constant 1 last, the bias), label and weight. */
export interface LogisticRow {
  f: readonly number[];
  y: number;
  weight: number;
}

/**
 * Gradient descent with L2 regularisation, halving the step whenever the loss grows. `lossAndGradient`
 * returns the weighted loss and gradient summed over examples, and the examples' total weight. Only
 * the weights `free` marks are changed.
 */
export function minimise(
  start: number[],
  free: readonly boolean[],
  l2: number,
  epochs: number,
  rate: number,
  lossAndGradient: (w: readonly number[]) => { loss: number; grad: number[]; total: number },
): { w: number[]; loss: number } {
  const w = [...start];
  let previous = Number.POSITIVE_INFINITY;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const { loss, grad, total } = lossAndGradient(w);
    if (loss / total > previous) rate /= 2;
    previous = loss / total;
    for (let j = 0; j < w.length; j++) if (free[j]) w[j]! -= rate * (grad[j]! / total + l2 * w[j]!);
  }
  return { w, loss: previous };
}

/** The weighted log loss of a logistic model `w` over `rows`, with its gradient and the rows' total weight. */
export function logLoss(
  rows: readonly LogisticRow[],
  w: readonly number[],
): { loss: number; grad: number[]; total: number } {
  const grad = w.map(() => 0);
  let loss = 0;
  let total = 0;
  for (const row of rows) {
    const p = 1 / (1 + Math.exp(-linearRow(row.f, w)));
    loss -= row.weight * (row.y ? Math.log(p + 1e-12) : Math.log(1 - p + 1e-12));
    total += row.weight;
    const d = row.weight * (p - row.y);
    for (let j = 0; j < w.length; j++) grad[j]! += d * row.f[j]!;
  }
  return { loss, grad, total };
}

/** A logistic model `w` fitted on `rows` from all zeros, `free` weights only. */
export function fitLogistic(rows: readonly LogisticRow[], free: readonly boolean[], l2: number): number[] {
  return minimise(
    rows[0]!.f.map(() => 0),
    free,
    l2,
    1000,
    1,
    (w) => logLoss(rows, w),
  ).w;
}

export function linearRow(f: readonly number[], w: readonly number[]): number {
  let s = 0;
  for (let j = 0; j < w.length; j++) s += f[j]! * w[j]!;
  return s;
}

/** A weight or band as the model file keeps it: four decimals. */
export function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

export function mean(values: Iterable<number>): number {
  const list = [...values];
  return list.reduce((a, b) => a + b, 0) / list.length;
}

/** A named subset of a cross-validation; throws naming the subsets there are otherwise. */
export function given<T>(subsets: Record<string, T>, name: string): T {
  const subset = subsets[name];
  if (subset === undefined)
    throw new Error(`no subset "${name}"; choose from ${Object.keys(subsets).join(', ')}`);
  return subset;
}

/**
 * Each item's cross-validation fold: every `folds`-th item of each set in turn, so that each fold
 * holds every set.
 */
export function foldsBySet<T extends { set: string }>(items: Iterable<T>, folds: number): Map<T, number> {
  const foldOf = new Map<T, number>();
  const seen = new Map<string, number>();
  for (const item of items) {
    const i = seen.get(item.set) ?? 0;
    seen.set(item.set, i + 1);
    foldOf.set(item, i % folds);
  }
  return foldOf;
}

/**
 * A logistic model's held-out figures by cross-validation: for each fold, fitted on the rows of
 * the other folds (`fitOn`), then its log loss and probabilities on the fold's own rows.
 */
export function heldOutLogistic<Row extends LogisticRow>(
  rows: readonly Row[],
  folds: number,
  foldOf: (row: Row) => number | undefined,
  fitOn: (rows: Row[]) => number[],
): { loss: number; p: Map<Row, number> } {
  const p = new Map<Row, number>();
  let loss = 0;
  let total = 0;
  for (let fold = 0; fold < folds; fold++) {
    const w = fitOn(rows.filter((row) => foldOf(row) !== fold));
    const out = rows.filter((row) => foldOf(row) === fold);
    const scored = logLoss(out, w);
    loss += scored.loss;
    total += scored.total;
    for (const row of out) p.set(row, 1 / (1 + Math.exp(-linearRow(row.f, w))));
  }
  return { loss: loss / total, p };
}
