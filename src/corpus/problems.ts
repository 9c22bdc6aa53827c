/** One thing wrong with the corpus, located as precisely as the source allows. */
export interface CorpusProblem {
  /** The file (or `file.jsonl`) the problem is in, as given to the loader. */
  file: string;
  /** 1-based line; 1 when the problem concerns the whole file. */
  line: number;
  message: string;
}

export function formatProblem(problem: CorpusProblem): string {
  return `${problem.file}:${problem.line}: ${problem.message}`;
}

/** A corpus, or an article, that failed validation. Nothing of it is ever served. */
export class CorpusError extends Error {
  override name = 'CorpusError';
  readonly problems: readonly CorpusProblem[];

  constructor(problems: readonly CorpusProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`Corpus refused (${count}):\n${problems.map(formatProblem).join('\n')}`);
    this.problems = problems;
  }
}
