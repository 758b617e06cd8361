// Schema 8: the full-text index keeps prefix indexes for words of 2 to 10 characters (it kept 2 only).
// Every word of a search is a prefix. FTS5 answers a prefix of an indexed length from one stored
// doclist, read only as far as the statement needs; any other length first merges the doclists of
// every word it starts, in full, before the first row comes out (about 3 ms per word found in a
// tenth of 1,000,000 assets, for each statement of a search). Longer words are rarer, and a word
// typed that far matches few rows. FTS5 cannot add prefix indexes to a table, so the index is rebuilt
// from the assets by the same expression as the full-text triggers; the triggers name the table, not
// its shape, and stay as they are.
import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from '../migrate.ts';

const REBUILD_ASSETS_FTS = `
DROP TABLE assets_fts;

CREATE VIRTUAL TABLE assets_fts USING fts5 (
  prompt, params, model, preset,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3 4 5 6 7 8 9 10'
);

INSERT INTO assets_fts (assets_fts, rank) VALUES ('rank', 'bm25(4.0, 1.0, 2.0, 2.0)');

INSERT INTO assets_fts (rowid, prompt, params, model, preset)
SELECT
  a.seq,
  coalesce(a.prompt, ''),
  coalesce((SELECT group_concat(value, ' ') FROM json_tree(coalesce(a.params, '{}'))
            WHERE atom IS NOT NULL AND key IS NOT 'prompt'), ''),
  coalesce(a.model_id, ''),
  coalesce(a.preset, '')
FROM assets a
ORDER BY a.seq;`;

export const migration0008: Migration = {
  version: 8,
  name: 'search-prefixes',
  up(db: BetterSqlite3.Database) {
    db.exec(REBUILD_ASSETS_FTS);
  },
};
