import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection now, on this thread. For a reload's workers, which read or build and end:
 * V8 grows a heap lazily and collects it late, so the garbage of reading a corpus or analysing its text
 * would otherwise pile up until the worker ends, while the old workers still serve beside it. `gc` is
 * not exposed to a worker (`--expose-gc` is a V8 flag, which `execArgv` does not take per worker); set
 * at run time, the flag gives the function to contexts made after it, as this one.
 */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** `collectGarbage`, at most once every `everyMs` however often it is called: for progress callbacks. */
export function collectingEvery(everyMs: number): () => void {
  let last = performance.now();
  return () => {
    if (performance.now() - last < everyMs) return;
    collectGarbage();
    last = performance.now();
  };
}
