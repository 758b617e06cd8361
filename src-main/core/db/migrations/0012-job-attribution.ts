// Schema 12: submissions that are sent again, and jobs found on the service that no request can be
// tied to for sure (issue 28). A row keeps the start of its latest POST (`sent_at`: the window its
// job can have been created in), how many times it was sent, and a resend it is waiting for
// (`resend_at`: its last try certainly created nothing). A job found on the service with more than
// one possible request is its own row (`unattributed` = 1, no request, polled to its end); its
// possible requests are `candidate_rows` (JSON array of local ids) until the user ties it to one.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

export const migration0012: Migration = {
  version: 12,
  name: 'job-attribution',
  up(db: BetterSqlite3.Database) {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN sent_at INTEGER;
      ALTER TABLE jobs ADD COLUMN sends INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN resend_at INTEGER;
      ALTER TABLE jobs ADD COLUMN resend_cancelled INTEGER NOT NULL DEFAULT 0 CHECK (resend_cancelled IN (0, 1));
      ALTER TABLE jobs ADD COLUMN unattributed INTEGER NOT NULL DEFAULT 0 CHECK (unattributed IN (0, 1));
      ALTER TABLE jobs ADD COLUMN candidate_rows TEXT CHECK (candidate_rows IS NULL OR json_valid(candidate_rows));
      CREATE INDEX jobs_unclaimed ON jobs (coalesce(sent_at, created_at)) WHERE job_id IS NULL;
      CREATE INDEX jobs_unattributed ON jobs (service_created_at) WHERE unattributed = 1;`);
  },
};
