// Public presets (spec §2 Preset) as last synced, in the service's order within each category.
import type BetterSqlite3 from 'better-sqlite3';
import type { PresetFields } from '../record-fields.ts';
import { preparedOnFirstUse } from '../sql.ts';

export interface PresetRow {
  tag: string;
  name: string;
  category: string;
  position: number;
}

/** A preset with its preview: the thumbnail of the newest image made with it (null: none yet). */
export interface PresetWithSample extends PresetRow {
  sample_thumb: string | null;
}

export interface ReplaceOutcome {
  added: number;
  updated: number;
  removed: number;
}

export class PresetsRepo {
  readonly #list: () => BetterSqlite3.Statement<[], PresetRow>;
  readonly #withSamples: () => BetterSqlite3.Statement<[], PresetWithSample>;
  readonly #get: () => BetterSqlite3.Statement<[string], PresetRow>;
  readonly #upsert: () => BetterSqlite3.Statement;
  readonly #delete: () => BetterSqlite3.Statement<[string]>;

  constructor(db: BetterSqlite3.Database) {
    // Uncategorised presets ('' category) sort last, so a grouped list ends with "Other".
    this.#list = preparedOnFirstUse(
      db,
      "SELECT tag, name, category, position FROM presets ORDER BY category = '', category COLLATE NOCASE, position",
    );
    // One index seek per preset (assets_preset_samples, migration 13), whatever the library's size.
    this.#withSamples = preparedOnFirstUse(
      db,
      `SELECT tag, name, category, position,
         (SELECT a.thumb_path FROM assets a
           WHERE a.preset = presets.tag AND a.kind = 'image' AND a.thumb_path IS NOT NULL
           ORDER BY a.created_at DESC LIMIT 1) AS sample_thumb
       FROM presets ORDER BY category = '', category COLLATE NOCASE, position`,
    );
    this.#get = preparedOnFirstUse(db, 'SELECT tag, name, category, position FROM presets WHERE tag = ?');
    this.#upsert = preparedOnFirstUse(
      db,
      `
      INSERT INTO presets (tag, name, category, position) VALUES (@tag, @name, @category, @position)
      ON CONFLICT (tag) DO UPDATE SET name = excluded.name, category = excluded.category, position = excluded.position`,
    );
    this.#delete = preparedOnFirstUse(db, 'DELETE FROM presets WHERE tag = ?');
  }

  list(): PresetRow[] {
    return this.#list().all();
  }

  /** The list with each preset's preview (the picker's). */
  listWithSamples(): PresetWithSample[] {
    return this.#withSamples().all();
  }

  get(tag: string): PresetRow | undefined {
    return this.#get().get(tag);
  }

  /** Makes the table equal to `presets` (call inside a transaction); counts what changed. */
  replaceAll(presets: readonly PresetFields[]): ReplaceOutcome {
    const outcome: ReplaceOutcome = { added: 0, updated: 0, removed: 0 };
    const before = new Map(this.list().map((row) => [row.tag, row]));
    const seen = new Set<string>();
    presets.forEach((preset, position) => {
      if (seen.has(preset.tag)) return;
      seen.add(preset.tag);
      const old = before.get(preset.tag);
      if (old && old.name === preset.name && old.category === preset.category && old.position === position) return;
      this.#upsert().run({ ...preset, position });
      if (old) outcome.updated += 1;
      else outcome.added += 1;
    });
    for (const tag of before.keys()) {
      if (!seen.has(tag)) outcome.removed += this.#delete().run(tag).changes;
    }
    return outcome;
  }
}
