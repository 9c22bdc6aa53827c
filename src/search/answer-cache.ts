import type { Answer } from './answer.ts';

/**
 * Remembers recent answers of one engine. Communities ask the same questions again (and "More
 * results" asks the same question at the next offset), and an engine never changes, so a remembered
 * answer stays right until a reload replaces the engine, and its cache with it.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Answer>();

  /**
   * @param capacity How many answers to keep; the least recently used go first.
   */
  constructor(private readonly capacity = 2000) {}

  get(key: string): Answer | undefined {
    const answer = this.entries.get(key);
    if (answer !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, answer);
    }
    return answer;
  }

  set(key: string, answer: Answer): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, deepFreeze(answer));
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Cached answers are shared between callers, so none may change one under the others. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
