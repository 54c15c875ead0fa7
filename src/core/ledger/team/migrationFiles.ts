/**
 * The migrations' SQL, by file name (`NNN_name.sql` in ./migrations). A bundle carries them inlined
 * (build.mjs defines ALFRED_TEAM_MIGRATIONS from the folder); run from source, they are read here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

declare const ALFRED_TEAM_MIGRATIONS: Record<string, string> | undefined;

export interface MigrationFile {
  /** The number before the first `_`. */
  version: number;
  name: string;
  sql: string;
}

const NAME = /^(\d{3})_[a-z0-9_]+\.sql$/;

export function migrationFiles(): MigrationFile[] {
  const texts = typeof ALFRED_TEAM_MIGRATIONS !== 'undefined'
    ? ALFRED_TEAM_MIGRATIONS
    : Object.fromEntries(fs.readdirSync(path.join(__dirname, 'migrations')).filter((f) => NAME.test(f))
      .map((f) => [f, fs.readFileSync(path.join(__dirname, 'migrations', f), 'utf8')]));
  return Object.entries(texts)
    .filter(([name]) => NAME.test(name))
    .map(([name, sql]) => ({ version: Number(NAME.exec(name)![1]), name, sql }))
    .sort((a, b) => a.version - b.version);
}
