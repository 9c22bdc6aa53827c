import { describe, expect, it } from 'vitest';
import { AuditLog, formatAuditEntry, systemActor } from '../../src/lifecycle/audit-log.ts';
import { createLogger } from '../../src/logging/logger.ts';

describe('AuditLog', () => {
  it('writes one JSON line per change with who, what, when and both versions, and feeds every sink', async () => {
    const lines: string[] = [];
    const log = new AuditLog({ logger: createLogger('info', (line) => lines.push(line)) });
    const posted: string[] = [];
    log.subscribe((entry) => void posted.push(formatAuditEntry(entry)));
    log.subscribe(() => {
      throw new Error('channel unreachable');
    });
    await log.record({
      actor: { id: '800000000000000001', name: 'alice' },
      action: 'remove',
      target: 'teteghem-mayor',
      outcome: 'ok',
      versionBefore: 'aaaaaaaaaaaa',
      versionAfter: 'bbbbbbbbbbbb',
      detail: 'removed',
      at: '2026-01-02T03:04:05.000Z',
    });
    expect(JSON.parse(lines[0]!)).toEqual({
      time: expect.any(String),
      level: 'info',
      message: 'corpus change',
      at: '2026-01-02T03:04:05.000Z',
      actor: { id: '800000000000000001', name: 'alice' },
      action: 'remove',
      target: 'teteghem-mayor',
      outcome: 'ok',
      versionBefore: 'aaaaaaaaaaaa',
      versionAfter: 'bbbbbbbbbbbb',
      detail: 'removed',
    });
    // A failing sink is logged, never thrown: the change itself already happened.
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'warn', message: 'audit sink failed' });
    expect(posted).toEqual([
      '[ok] <@800000000000000001> (alice): remove `teteghem-mayor`; version aaaaaaaaaaaa → bbbbbbbbbbbb; removed (2026-01-02T03:04:05.000Z)',
    ]);
  });

  it('names system actors without a mention', () => {
    const line = formatAuditEntry({
      at: '2026-01-02T03:04:05.000Z',
      actor: systemActor('SIGHUP'),
      action: 'reload',
      outcome: 'refused',
      versionBefore: 'aaaaaaaaaaaa',
      versionAfter: 'aaaaaaaaaaaa',
      detail: 'corpus refused (2 problems)',
    });
    expect(line).toBe(
      '[refused] SIGHUP: reload; version aaaaaaaaaaaa (unchanged); corpus refused (2 problems) (2026-01-02T03:04:05.000Z)',
    );
  });
});
