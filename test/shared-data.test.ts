// @module-tag shared-data (skipped in a clone without ../shared; in CI it always runs)
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA, SHARED_DIR } from './support/shared-data.ts';

describe('../shared, which the tests tagged shared-data read', () => {
  it('holds every data set they read, so that CI (CI=true) never runs a silently smaller suite', () => {
    const missing = Object.values(SHARED_DATA).filter((file) => !existsSync(SHARED_DIR + file));
    expect(
      missing,
      `missing from ${SHARED_DIR}: CI runs the full suite with ../shared beside the clone`,
    ).toEqual([]);
  });
});
