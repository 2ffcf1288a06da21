// A dedupe Store in a PostgreSQL table keyed by the dedupe key.
import type { Claim, Store } from "./dedupe.js";

/** What PostgresStore needs of a client: node-postgres's Pool and Client fit. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

/** The table PostgresStore uses by default. */
export const DEFAULT_PG_TABLE = "ferry_webhook_dedupe";

const TABLE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** Dedupe keys in PostgreSQL; expiry uses the database's clock. */
export class PostgresStore implements Store {
  constructor(
    private readonly db: PgQueryable,
    readonly table: string = DEFAULT_PG_TABLE,
  ) {
    if (!TABLE.test(table)) throw new RangeError(`invalid table name ${JSON.stringify(table)}`);
  }

  /** Creates the table if missing. */
  async createTable(): Promise<void> {
    await this.db.query(
      `CREATE TABLE IF NOT EXISTS ${this.table} (key text PRIMARY KEY, done boolean NOT NULL DEFAULT false, expires_at timestamptz NOT NULL)`,
    );
  }

  async claim(key: string, leaseMs: number): Promise<Claim> {
    for (let i = 0; i < 3; i++) {
      const ins = await this.db.query(
        `INSERT INTO ${this.table} AS t (key, done, expires_at)
VALUES ($1, false, now() + $2::bigint * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET done = false, expires_at = EXCLUDED.expires_at
WHERE t.expires_at <= now() RETURNING key`,
        [key, Math.round(leaseMs)],
      );
      if ((ins.rowCount ?? ins.rows.length) > 0) return "claimed";
      const sel = await this.db.query(`SELECT done FROM ${this.table} WHERE key = $1 AND expires_at > now()`, [key]);
      if (sel.rows.length > 0) return sel.rows[0].done ? "done" : "in_progress";
    }
    throw new Error(`claim ${key}: row kept changing`);
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.table} AS t (key, done, expires_at)
VALUES ($1, true, now() + $2::bigint * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET done = true, expires_at = EXCLUDED.expires_at`,
      [key, Math.round(ttlMs)],
    );
  }

  async release(key: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.table} WHERE key = $1 AND NOT done`, [key]);
  }

  /** Deletes expired keys (run it daily) and returns how many. */
  async purge(): Promise<number> {
    const r = await this.db.query(`DELETE FROM ${this.table} WHERE expires_at <= now()`);
    return r.rowCount ?? 0;
  }
}
