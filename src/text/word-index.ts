/**
 * `{ [list[k]]: k }` for a long list of words (the English model's 87,593), as wink-nlp reads it
 * (`index[word]`, `word in index`) and extends it (`index[word] = n`, for a word it meets that the list
 * lacks), at a fraction of the cost of making that object: the list's positions are one `Int32Array`
 * (open addressing by an FNV-1a hash of each word), built in about a third of the time an object of as
 * many keys takes (half a `Map`'s) and outside the heap, so the collector never copies it (a cached CLI
 * call loads the model for every question). The object handed out starts empty: a word read for the first
 * time is found in the table by its prototype, a `Proxy`, and kept as the object's own property, so
 * every later read of it is an ordinary property read, as fast as in the object it stands for. Words
 * added are its own properties too. Unlike that object, it lists only the words read or added so far,
 * and deleting one of the list's words does not remove it (wink-nlp does neither).
 */
export function wordIndexOf(list: readonly string[]): Record<string, number> {
  // The list's own words: wink-nlp pushes the words it adds onto the same array.
  const count = list.length;
  let size = 2;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  const slots = new Int32Array(size).fill(-1);
  /** Where `word` is in the table, or the free slot where it would go. */
  const slotOf = (word: string): number => {
    let slot = hashOf(word) & mask;
    while (slots[slot] !== -1 && list[slots[slot]!] !== word) slot = (slot + 1) & mask;
    return slot;
  };
  // A word listed twice is at its last place, as in the object.
  for (let k = 0; k < count; k++) slots[slotOf(list[k]!)] = k;
  const find = (key: string | symbol): number => (typeof key === 'string' ? slots[slotOf(key)]! : -1);
  const table = new Proxy(Object.create(null) as object, {
    get: (_, key, receiver: object) => {
      const k = find(key);
      if (k === -1) return undefined;
      Object.defineProperty(receiver, key, {
        value: k,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      return k;
    },
    has: (_, key) => find(key) !== -1,
  });
  // A word set (a new one) lands on the object itself: the Proxy has no `set`, so the assignment
  // makes an own property of the object it was made on, as on any object.
  return Object.create(table) as Record<string, number>;
}

/** 32-bit FNV-1a over the word's UTF-16 code units. */
function hashOf(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
