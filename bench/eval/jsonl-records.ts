import { readFile } from 'node:fs/promises';

/**
 * Reads a file of one JSON value per line, blank lines skipped, each turned into a record by
 * `toRecord` (null when the value is not one). A line that is not JSON, or not a record, stops the
 * read with its file and line number and, for the latter, `expected`.
 */
export async function readJsonLines<T>(
  path: string,
  toRecord: (value: unknown) => T | null,
  expected: string,
): Promise<T[]> {
  const text = await readFile(path, 'utf8');
  const records: T[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${path}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${where}: not a JSON object`);
    }
    const record = toRecord(value);
    if (record === null) throw new Error(`${where}: expected ${expected}`);
    records.push(record);
  });
  return records;
}
