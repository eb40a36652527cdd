import { describe, expect, it } from '@jest/globals';
import { parseDatabaseConfig, redactUrl } from './database-config.js';
import { InvalidDatabaseConfigError } from './errors/invalid-database-config-error.js';

describe('parseDatabaseConfig', () => {
  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const url = 'postgresql://talon:pw@db:5432/talon';
    expect(parseDatabaseConfig({ DATABASE_URL: url, TALON_PGLITE_DIR: '/ignored' }, '/srv')).toEqual({
      kind: 'postgres',
      url,
    });
    expect(parseDatabaseConfig({ DATABASE_URL: ' postgres://db/talon ' }, '/srv')).toEqual({
      kind: 'postgres',
      url: 'postgres://db/talon',
    });
  });

  it('falls back to PGlite under the state directory, resolved against the working directory', () => {
    expect(parseDatabaseConfig({}, '/srv/app')).toEqual({
      kind: 'pglite',
      dataDir: '/srv/app/.talon/state/pglite',
      sharedBuffers: '16MB',
      thread: false,
    });
    expect(parseDatabaseConfig({ DATABASE_URL: '  ' }, '/srv/app')).toEqual({
      kind: 'pglite',
      dataDir: '/srv/app/.talon/state/pglite',
      sharedBuffers: '16MB',
      thread: false,
    });
    expect(parseDatabaseConfig({ TALON_STATE_DIR: 'state' }, '/srv/app')).toEqual({
      kind: 'pglite',
      dataDir: '/srv/app/state/pglite',
      sharedBuffers: '16MB',
      thread: false,
    });
    expect(
      parseDatabaseConfig({ TALON_STATE_DIR: '/var/talon', TALON_PGLITE_DIR: '../db' }, '/srv/app'),
    ).toEqual({
      kind: 'pglite',
      dataDir: '/srv/db',
      sharedBuffers: '16MB',
      thread: false,
    });
    expect(parseDatabaseConfig({ TALON_PGLITE_DIR: 'memory://' }, '/srv/app')).toEqual({
      kind: 'pglite',
      dataDir: 'memory://',
      sharedBuffers: '16MB',
      thread: false,
    });
  });

  it("reads PGlite's shared_buffers and refuses a size PostgreSQL would not take", () => {
    expect(parseDatabaseConfig({ TALON_PGLITE_SHARED_BUFFERS: ' 64MB ' }, '/srv')).toMatchObject({
      sharedBuffers: '64MB',
    });
    expect(parseDatabaseConfig({ TALON_PGLITE_SHARED_BUFFERS: '128kB' }, '/srv')).toMatchObject({
      sharedBuffers: '128kB',
    });
    for (const bad of ['16', '16mb', '64kB', '0MB', '1.5GB', '16MB;fsync=off']) {
      expect(() => parseDatabaseConfig({ TALON_PGLITE_SHARED_BUFFERS: bad })).toThrow(
        /TALON_PGLITE_SHARED_BUFFERS.*at least 128kB/,
      );
    }
  });

  it('runs PGlite in a thread of its own only when TALON_PGLITE_THREAD is on, and refuses other values', () => {
    expect(parseDatabaseConfig({ TALON_PGLITE_THREAD: ' ON ' }, '/srv')).toMatchObject({ thread: true });
    expect(parseDatabaseConfig({ TALON_PGLITE_THREAD: 'off' }, '/srv')).toMatchObject({ thread: false });
    expect(parseDatabaseConfig({ TALON_PGLITE_THREAD: '' }, '/srv')).toMatchObject({ thread: false });
    for (const bad of ['yes', '1', 'true'])
      expect(() => parseDatabaseConfig({ TALON_PGLITE_THREAD: bad })).toThrow(
        /TALON_PGLITE_THREAD.*on or off/,
      );
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL, without echoing its password', () => {
    expect(() => parseDatabaseConfig({ DATABASE_URL: 'mysql://root:hunter2@db/talon' })).toThrow(
      InvalidDatabaseConfigError,
    );
    expect(() => parseDatabaseConfig({ DATABASE_URL: 'mysql://root:hunter2@db/talon' })).toThrow(
      /postgres:\/\/ or postgresql:\/\//,
    );
    expect(() => parseDatabaseConfig({ DATABASE_URL: 'mysql://root:hunter2@db/talon' })).not.toThrow(
      /hunter2/,
    );
    expect(() => parseDatabaseConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });
});

describe('redactUrl', () => {
  it('hides the password and keeps the rest', () => {
    expect(redactUrl('postgres://talon:s3cret@db:5432/talon?sslmode=require')).toBe(
      'postgres://talon:***@db:5432/talon?sslmode=require',
    );
    expect(redactUrl('postgres://talon@db/talon')).toBe('postgres://talon@db/talon');
    expect(redactUrl('garbage //u:p@x')).toBe('garbage //u:***@x');
  });
});
