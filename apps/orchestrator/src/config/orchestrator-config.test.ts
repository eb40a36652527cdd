import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseOrchestratorConfig } from './orchestrator-config.js';

describe('orchestrator config: hands and schedules', () => {
  it('reads the hands folder and the schedule timezone', () => {
    const config = parseOrchestratorConfig({
      TALON_HANDS_DIR: '/srv/hands',
      TALON_TIMEZONE: 'Asia/Shanghai',
    });
    expect(config).toMatchObject({ handsDir: '/srv/hands', timezone: 'Asia/Shanghai' });
    expect(parseOrchestratorConfig({}).handsDir).toBe(resolve('hands'));
  });

  it('refuses a timezone that is not an IANA name, saying what to use', () => {
    expect(() => parseOrchestratorConfig({ TALON_TIMEZONE: 'Mars/Olympus' })).toThrow(
      /TALON_TIMEZONE="Mars\/Olympus" is invalid: expected an IANA timezone/,
    );
  });
});

describe('orchestrator config: turn leases', () => {
  it('defaults the turn lease to 10 s and reads TALON_TURN_LEASE_MS', () => {
    expect(parseOrchestratorConfig({}).turnLeaseMs).toBe(10_000);
    expect(parseOrchestratorConfig({ TALON_TURN_LEASE_MS: '1500' }).turnLeaseMs).toBe(1500);
  });

  it('refuses a lease too short to renew, or not a number, saying what to use', () => {
    expect(() => parseOrchestratorConfig({ TALON_TURN_LEASE_MS: '50' })).toThrow(
      /TALON_TURN_LEASE_MS="50" is invalid: expected at least 300/,
    );
    expect(() => parseOrchestratorConfig({ TALON_TURN_LEASE_MS: 'soon' })).toThrow(/TALON_TURN_LEASE_MS/);
  });
});

describe('orchestrator config: the audit outbox', () => {
  const postgres = { DATABASE_URL: 'postgres://talon@127.0.0.1:5432/talon' };

  it('journals on PGlite with a data directory, in a folder of that directory', () => {
    expect(parseOrchestratorConfig({ TALON_PGLITE_DIR: '/var/talon/pglite' }).auditOutbox).toEqual({
      mode: 'journal',
      dir: '/var/talon/pglite/talon-audit-journal',
    });
    expect(parseOrchestratorConfig({ TALON_STATE_DIR: '/var/talon' }).auditOutbox).toEqual({
      mode: 'journal',
      dir: '/var/talon/pglite/talon-audit-journal',
    });
  });

  it('commits to the database on PostgreSQL and on PGlite in memory, and when told to', () => {
    expect(parseOrchestratorConfig(postgres).auditOutbox).toEqual({ mode: 'off' });
    expect(parseOrchestratorConfig({ TALON_PGLITE_DIR: 'memory://' }).auditOutbox).toEqual({ mode: 'off' });
    expect(
      parseOrchestratorConfig({ TALON_PGLITE_DIR: '/var/talon/pglite', TALON_AUDIT_OUTBOX: 'off' })
        .auditOutbox,
    ).toEqual({ mode: 'off' });
    expect(parseOrchestratorConfig({ ...postgres, TALON_AUDIT_OUTBOX: 'JetStream' }).auditOutbox).toEqual({
      mode: 'jetstream',
    });
  });

  it('refuses an unknown outbox, and a journal where no single orchestrator owns a folder', () => {
    expect(() => parseOrchestratorConfig({ TALON_AUDIT_OUTBOX: 'kafka' })).toThrow(
      /TALON_AUDIT_OUTBOX="kafka" is invalid: expected off \(commit each record to the database\), journal/,
    );
    expect(() => parseOrchestratorConfig({ ...postgres, TALON_AUDIT_OUTBOX: 'journal' })).toThrow(
      /TALON_AUDIT_OUTBOX="journal" is invalid: expected off or jetstream: the journal lives in the data directory of PGlite/,
    );
    expect(() =>
      parseOrchestratorConfig({ TALON_PGLITE_DIR: 'memory://', TALON_AUDIT_OUTBOX: 'journal' }),
    ).toThrow(/not memory:/);
  });
});
