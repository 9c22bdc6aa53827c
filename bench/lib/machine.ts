import { readFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

/** The machine a benchmark ran on, stated next to its numbers. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
}

export function describeMachine(): MachineInfo {
  const processors = cpus();
  return {
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
  };
}

/**
 * The installed version of each package, read from its package.json under `projectRoot/node_modules`
 * (some packages' export maps hide their package.json from `require.resolve`).
 */
export function installedVersions(
  projectRoot: string,
  packageNames: readonly string[],
): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of packageNames) {
    try {
      const manifest = JSON.parse(
        readFileSync(join(projectRoot, 'node_modules', name, 'package.json'), 'utf8'),
      ) as {
        version?: string;
      };
      versions[name] = manifest.version ?? 'unknown';
    } catch {
      versions[name] = 'not installed';
    }
  }
  return versions;
}
