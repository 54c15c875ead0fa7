/**
 * Applies the migrations the database lacks, in order, in one transaction, each recorded in
 * `alfred_migrations`. An advisory lock makes many processes starting at once apply them once.
 */
import type { ClientBase } from 'pg';
import { migrationFiles, type MigrationFile } from './migrationFiles';

/** Any 64-bit number, the same in every Alfred: the lock's name. */
const MIGRATION_LOCK = 0x616c66726564; // "alfred"

export async function migrate(db: ClientBase, files: readonly MigrationFile[] = migrationFiles()): Promise<string[]> {
  // Every hook process connects anew: one question tells the common case, a database up to date.
  const latest = Math.max(0, ...files.map((f) => f.version));
  const applied = await db.query<{ v: number | null }>('SELECT max(version) AS v FROM alfred_migrations').catch(() => undefined);
  if (applied && (applied.rows[0]?.v ?? 0) >= latest) return [];
  await db.query('BEGIN');
  try {
    await db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await db.query('CREATE TABLE IF NOT EXISTS alfred_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await db.query<{ version: number }>('SELECT version FROM alfred_migrations')).rows.map((r) => r.version));
    const applied: string[] = [];
    for (const m of files) {
      if (done.has(m.version)) continue;
      await db.query(m.sql);
      await db.query('INSERT INTO alfred_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.name);
    }
    await db.query('COMMIT');
    return applied;
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
