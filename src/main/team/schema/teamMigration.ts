/** One step of the team workspace's PostgreSQL schema (its own numbering, separate from SQLite's). */
export interface TeamMigration {
  version: number;
  name: string;
  /** Run as the schema's owner role (`vendesk_owner`), inside the migrating transaction. */
  sql: string;
}
