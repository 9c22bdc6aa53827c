// One `npm run start:http` replica as a real process, for the tests of several hosts: started with the
// environment a test gives it, its JSON log lines kept, asked over signed HTTP, stopped at the end.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { APIInteraction } from 'discord.js';
import { freePort } from './servers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Signs a body as Discord does (see test/transports/http/support/signer.ts). */
export interface RequestSigner {
  headersFor(body: string): Record<string, string>;
}

export interface HttpAnswer {
  status: number;
  body: { type?: number; data?: Record<string, unknown> } & Record<string, unknown>;
  text: string;
}

export class Replica {
  readonly name: string;
  readonly port: number;
  readonly logs: Record<string, unknown>[] = [];
  #child: ChildProcess;

  private constructor(name: string, port: number, child: ChildProcess) {
    this.name = name;
    this.port = port;
    this.#child = child;
    let rest = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        try {
          this.logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          this.logs.push({ message: line });
        }
      }
    });
  }

  /** Starts `src/transports/http/main.ts` (what `npm run start:http` runs) and waits for `/healthz`. */
  static async start(name: string, env: Record<string, string>): Promise<Replica> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/transports/http/main.ts'], {
      cwd: REPO,
      env: { ...process.env, ...env, HTTP_PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const replica = new Replica(name, port, child);
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(
          `replica ${name} exited (${child.exitCode}): ${JSON.stringify(replica.logs.slice(-5))}`,
        );
      if ((await replica.get('/healthz').catch(() => undefined))?.status === 200) return replica;
      if (Date.now() > deadline) throw new Error(`replica ${name} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  async get(path: string): Promise<HttpAnswer> {
    const response = await fetch(`${this.url}${path}`, { signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as HttpAnswer['body'] };
  }

  /** POSTs a signed interaction (or the exact bytes and headers given, to replay them). */
  async interact(
    signer: RequestSigner,
    interaction: APIInteraction,
    sent: { body: string; headers: Record<string, string> } = bodyAndHeaders(signer, interaction),
  ): Promise<HttpAnswer> {
    const response = await fetch(`${this.url}/interactions`, {
      method: 'POST',
      headers: sent.headers,
      body: sent.body,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as HttpAnswer['body'] };
  }

  /** Lines this replica logged whose message matches. */
  logged(message: RegExp): Record<string, unknown>[] {
    return this.logs.filter((line) => message.test(String(line.message ?? '')));
  }

  /** SIGTERM (a graceful stop) or SIGKILL (a crash); resolves once the process is gone. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      this.#child.once('exit', () => resolve());
      this.#child.kill(signal);
    });
  }
}

export function bodyAndHeaders(
  signer: RequestSigner,
  interaction: APIInteraction,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(interaction);
  return { body, headers: signer.headersFor(body) };
}
