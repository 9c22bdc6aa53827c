import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { deployCommands } from '../../src/deploy-commands.ts';
import { ids } from '../support/stand-in-discord/fixtures.ts';
import { chatInput } from '../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../support/stand-in-discord/server.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';
import { member, textOf } from './harness.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a project script as `npm run` would (tsx), with only the given settings in its environment. */
function run(
  script: string,
  env: Record<string, string>,
  stdin?: string,
): ChildProcess & { output: Promise<Output> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    // Empty values mean "unset" to loadConfig, so a developer's .env cannot leak into the test.
    env: {
      PATH: process.env.PATH ?? '',
      DISCORD_TOKEN: '',
      DISCORD_APPLICATION_ID: '',
      DISCORD_GUILD_ID: '',
      MODERATOR_ROLE_IDS: '',
      INDEX_CACHE_DIR: '',
      // Nothing recorded into the repository's .data/ (an empty DATA_DIR stores nothing).
      DATA_DIR: '',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  if (stdin !== undefined) child.stdin.end(stdin);
  const output = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return Object.assign(child, { output });
}

interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('the entry points, run as processes', { timeout: 90_000 }, () => {
  let discord: StandInDiscord;

  beforeAll(async () => {
    discord = await StandInDiscord.start();
  });

  afterAll(async () => {
    await discord?.close();
  });

  it('npm start without a token answers piped console commands line by line', async () => {
    const { code, stdout, stderr } = await run(
      'src/main.ts',
      {},
      '/ask who threatened the mayor of Teteghem? limit:1\n/cite teteghem-mayor-threatened-with-gun#3\n/sources\n/about\n/bogus\n/quit\n',
    ).output;
    expect(code).toBe(0);
    expect(stdout).toContain('One passage answers your question:');
    expect(stdout).toContain('cite teteghem-mayor-threatened-with-gun#');
    expect(stdout).toContain('¶3 (cited)');
    expect(stdout).toContain('Sources: 3 articles');
    expect(stdout).toContain('Articles: 3');
    expect(stdout).toContain('Unknown command /bogus');
    expect(stdout).not.toContain('\u001b['); // no colour when stdout is not a terminal
    // Progress while reading and indexing, then one line saying what is served, on stderr.
    expect(stderr).toMatch(/^newsdesk: reading the corpus \d+\/3 read/);
    expect(stderr).toMatch(/^newsdesk: ready: 3 articles, \d+ passages, index built, in [\d.]+ s$/m);
  });

  it('npm start runs node itself and writes PID_FILE: kill -HUP on that pid reloads the corpus, and the console says how it went', async () => {
    const { root, corpus, cleanup } = await copyOfBundledCorpus();
    const pidFile = path.join(root, 'newsdesk.pid');
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? root,
        DISCORD_TOKEN: '',
        INDEX_CACHE_DIR: '',
        DATA_DIR: '',
        CORPUS_PATH: corpus,
        PID_FILE: pidFile,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      await vi.waitFor(() => readFile(pidFile, 'utf8'), { timeout: 60_000, interval: 200 });
      const pid = Number((await readFile(pidFile, 'utf8')).trim());
      expect(pid).not.toBe(child.pid);
      // npm's direct child is node (no tsx wrapper, no shell left in between): the process to signal.
      expect((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(0, 3)).toEqual([
        expect.stringMatching(/node$/),
        '--import',
        'tsx',
      ]);
      await writeFile(path.join(corpus, 'lighthouse.md'), LIGHTHOUSE);
      process.kill(pid, 'SIGHUP');
      await vi.waitFor(
        () => {
          child.stdin.write('/sources\n');
          expect(stdout).toContain('Sources: 4 articles');
        },
        { timeout: 30_000, interval: 500 },
      );
      // The console's log shows warnings only: the operator who sent the signal is told how it went.
      expect(stderr).toMatch(/^newsdesk: corpus reload \(SIGHUP\): 1 added, 0 removed, 0 changed; /m);
      await writeFile(path.join(corpus, 'broken.md'), '');
      process.kill(pid, 'SIGHUP');
      await vi.waitFor(
        () => {
          expect(stderr).toContain(
            'newsdesk: corpus reload (SIGHUP): corpus refused (1 problem); still serving',
          );
          expect(stderr).toContain(`\n  ${path.join(corpus, 'broken.md')}:1: `);
        },
        { timeout: 30_000, interval: 200 },
      );
      child.stdin.end('/quit\n');
      await once(child, 'exit');
      await expect(readFile(pidFile, 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      child.kill();
      await cleanup();
    }
  }, 120_000);

  it('a SIGHUP while the bot is still starting is held, not fatal: it reloads once it listens', async () => {
    const child = run('src/main.ts', {});
    // The first line on stderr is the corpus being read: the lifecycle listens only after indexing.
    await once(child.stderr!, 'data');
    child.kill('SIGHUP');
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await vi.waitFor(() => expect(stderr).toMatch(/^newsdesk: corpus reload \(SIGHUP\): /m), {
      timeout: 30_000,
      interval: 100,
    });
    child.stdin!.end('/ask who threatened the mayor of Teteghem? limit:1\n/quit\n');
    const { code, stdout } = await child.output;
    expect(code).toBe(0);
    expect(stdout).toContain('One passage answers your question:');
  });

  it('a bad setting stops start-up with a message naming the variable', async () => {
    const { code, stderr } = await run('src/main.ts', { RATE_LIMIT_QUESTIONS: 'lots' }, '').output;
    expect(code).toBe(1);
    expect(stderr).toContain('RATE_LIMIT_QUESTIONS must be a whole number from 1 to 1000; got "lots"');
  });

  it('a token Discord refuses stops start-up with one plain line and a hint, no stack trace', async () => {
    const { code, stderr } = await run('src/main.ts', {
      DISCORD_TOKEN: 'not-the-token',
      DISCORD_API_BASE: discord.apiBase,
      LOG_LEVEL: 'warn',
    }).output;
    expect(code).toBe(1);
    expect(stderr).toBe(
      'newsdesk: Discord refused DISCORD_TOKEN (an invalid token)\n' +
        'hint: reset the token in the Discord Developer Portal (your application > Bot > Reset Token) ' +
        'and set DISCORD_TOKEN in .env to it; the application id and the public key are not the token\n',
    );
  });

  it('npm run deploy-commands refuses a malformed DISCORD_APPLICATION_ID, or a refused token, in plain words', async () => {
    const malformed = await run('src/deploy-commands.ts', {
      DISCORD_TOKEN: discord.token,
      DISCORD_APPLICATION_ID: 'newsdesk',
      DISCORD_API_BASE: discord.apiBase,
    }).output;
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toBe(
      'deploy-commands: Invalid configuration (check .env and the environment):\n' +
        '  DISCORD_APPLICATION_ID must be a Discord id (digits only); got "newsdesk"\n',
    );
    // A stand-in of its own: the refused request stays out of the one the next test reads.
    const other = await StandInDiscord.start();
    const refused = await run('src/deploy-commands.ts', {
      DISCORD_TOKEN: 'not-the-token',
      DISCORD_APPLICATION_ID: ids.application,
      DISCORD_API_BASE: other.apiBase,
    }).output;
    await other.close();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^deploy-commands: Discord refused DISCORD_TOKEN \(an invalid token\)\n/);
    expect(refused.stderr.split('\n')).toHaveLength(3);
  });

  it('npm run deploy-commands registers every command to the guild through REST', async () => {
    const { code, stdout, stderr } = await run('src/deploy-commands.ts', {
      DISCORD_TOKEN: discord.token,
      DISCORD_APPLICATION_ID: ids.application,
      DISCORD_GUILD_ID: ids.guild,
      DISCORD_API_BASE: discord.apiBase,
    }).output;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Registered 15 commands to guild/);
    const registered = discord.registered.get(
      `/applications/${ids.application}/guilds/${ids.guild}/commands`,
    ) as {
      name: string;
      type: number;
      default_member_permissions?: string | null;
    }[];
    expect(registered.map((command) => command.name).sort()).toEqual(
      [
        'Check quote',
        'Find coverage',
        'about',
        'ask',
        'checkquote',
        'cite',
        'corpus',
        'digest',
        'feeds',
        'gaps',
        'reload',
        'settings',
        'sources',
        'timeline',
        'watches',
      ].sort(),
    );
    expect(registered.find((command) => command.name === 'Find coverage')?.type).toBe(3);
    expect(registered.find((command) => command.name === 'reload')?.default_member_permissions).toBe('32');
    expect(registered.find((command) => command.name === 'feeds')?.default_member_permissions).toBe('32');
    expect(registered.find((command) => command.name === 'gaps')?.default_member_permissions).toBe('32');
    expect(registered.find((command) => command.name === 'digest')?.default_member_permissions).toBe('32');
    const put = discord.requests.find((request) => request.method === 'PUT');
    expect(put?.authorization).toBe(`Bot ${discord.token}`);
  });

  it('deployCommands without a guild registers globally', async () => {
    const config = loadConfig({
      DISCORD_TOKEN: discord.token,
      DISCORD_APPLICATION_ID: ids.application,
      DISCORD_API_BASE: discord.apiBase,
    });
    const { scope, registered } = await deployCommands(config);
    expect(scope).toBe('globally');
    expect(registered).toHaveLength(15);
    expect(discord.registered.get(`/applications/${ids.application}/commands`)).toHaveLength(15);
  });

  it('deployCommands without an application id says which settings it needs', async () => {
    await expect(deployCommands(loadConfig({ DISCORD_TOKEN: 'x' }))).rejects.toThrow(
      /DISCORD_APPLICATION_ID/,
    );
  });
});

describe('npm start with a token', () => {
  it('logs in to the gateway, answers, and exits cleanly on SIGTERM', async () => {
    const gateway = await StandInDiscord.start();
    const bot = run('src/main.ts', {
      DISCORD_TOKEN: gateway.token,
      DISCORD_API_BASE: gateway.apiBase,
      LOG_LEVEL: 'warn',
    });
    try {
      await gateway.sessionReady();
      const { data } = await gateway
        .interact(chatInput('ask', { question: 'Who threatened the mayor?' }, member))
        .final();
      expect(textOf(data)).toContain('cite `teteghem-mayor-threatened-with-gun#');
      bot.kill('SIGTERM');
      const { code } = await bot.output;
      expect(code).toBe(0);
    } finally {
      bot.kill('SIGKILL');
      await gateway.close();
    }
  });
});

describe('stopping while a reload meets a FIFO in the corpus folder', () => {
  it('refuses the FIFO, keeps serving, and still exits on SIGTERM', async () => {
    const gateway = await StandInDiscord.start();
    const { corpus, cleanup } = await copyOfBundledCorpus();
    const bot = run('src/main.ts', {
      DISCORD_TOKEN: gateway.token,
      DISCORD_API_BASE: gateway.apiBase,
      CORPUS_PATH: corpus,
      LOG_LEVEL: 'info',
    });
    let stderr = '';
    bot.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      await gateway.sessionReady();
      execFileSync('mkfifo', [path.join(corpus, 'pipe.md')]);
      bot.kill('SIGHUP');
      // A reload that opened the FIFO for reading never ended: this line never came.
      await vi.waitFor(() => expect(stderr).toContain('not a regular file'), {
        timeout: 20_000,
        interval: 100,
      });
      const { data } = await gateway
        .interact(chatInput('ask', { question: 'Who threatened the mayor?' }, member))
        .final();
      expect(textOf(data)).toContain('cite `teteghem-mayor-threatened-with-gun#');
      bot.kill('SIGTERM');
      const exited = await Promise.race([bot.output, sleep(20_000).then(() => 'still running' as const)]);
      expect(exited).toMatchObject({ code: 0 });
    } finally {
      bot.kill('SIGKILL');
      await gateway.close();
      await cleanup();
    }
  });
});

/** Whether a process of that id still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('stopping on SIGTERM', { timeout: 90_000 }, () => {
  it('the console stops as /quit does: exit code 0, its pid file removed', async () => {
    const { root, cleanup } = await copyOfBundledCorpus();
    const pidFile = path.join(root, 'newsdesk.pid');
    // Its input stays open: only the signal can end this console.
    const console = run('src/main.ts', { PID_FILE: pidFile });
    try {
      await vi.waitFor(() => readFile(pidFile, 'utf8'), { timeout: 60_000, interval: 200 });
      console.kill('SIGTERM');
      const exited = await Promise.race([console.output, sleep(20_000).then(() => 'still running' as const)]);
      expect(exited).toMatchObject({ code: 0 });
      await expect(readFile(pidFile, 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      console.kill('SIGKILL');
      await cleanup();
    }
  });

  it('the sharding manager stops its shards, waits for them, then exits 0 and removes its pid file', async () => {
    const gateway = await StandInDiscord.start();
    const { root, corpus, cleanup } = await copyOfBundledCorpus();
    const pidFile = path.join(root, 'manager.pid');
    const manager = run('src/transports/sharding/main.ts', {
      DISCORD_TOKEN: gateway.token,
      DISCORD_API_BASE: gateway.apiBase,
      CORPUS_PATH: corpus,
      SHARDS: '1',
      PID_FILE: pidFile,
      LOG_LEVEL: 'warn',
    });
    try {
      await gateway.sessionReady();
      await vi.waitFor(() => readFile(pidFile, 'utf8'), { timeout: 30_000, interval: 200 });
      // The manager's children: its shard, and tsx's esbuild service.
      const [shard] = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(manager.pid)], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter((line) => line.includes('src/main.ts'))
        .map((line) => Number.parseInt(line, 10));
      expect(shard).toBeGreaterThan(0);
      manager.kill('SIGTERM');
      const exited = await Promise.race([manager.output, sleep(20_000).then(() => 'still running' as const)]);
      expect(exited).toMatchObject({ code: 0 });
      // The manager left no shard behind still stopping.
      expect(alive(shard!)).toBe(false);
      await expect(readFile(pidFile, 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      manager.kill('SIGKILL');
      await gateway.close();
      await cleanup();
    }
  });
});
