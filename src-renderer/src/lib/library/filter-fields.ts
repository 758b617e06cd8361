// The Library's filter fields as the user meets them: for each field of the contract's AssetFilter,
// its role, its name on screen and the count that tells how many it holds. Declared once: the filter
// bar's chips, the empty state, the selection bar's "hidden by filters" and the header's total read
// this table; a field added to the filter without an entry here does not compile. Which assets a
// filter holds is the core's alone (its SQL term per field).
import type { AssetCountsInfo, AssetFilter } from '@contract/ipc/assets.ts';
import { RATING_MAX } from '@contract/ipc/marks.ts';
import { hardDrive, heart, star, type Glyph } from '../components/ui/glyphs.ts';
import { formatDay, localDay } from './format.ts';

export type FilterField = keyof AssetFilter;

/** The on/off fields (offline, liked, favorite…): the bar's chips switch them on and off. */
export type FlagField = {
  [K in FilterField]-?: NonNullable<AssetFilter[K]> extends boolean ? K : never;
}[FilterField];

/** What a model id is called on screen. */
export type ModelName = (id: string | null) => string;

interface Described<V> {
  /** The field set to `value`, in a few words ("Images", "Offline", "From 3 Mar 2025"). */
  describe(value: V, modelName: ModelName): string;
  /** How many of the place's assets it holds alone, when the counts tell it. */
  count?(value: V, counts: AssetCountsInfo): number | null;
}

/** Where one is (results, uploads, a collection), not a filter: clearing filters keeps it. */
interface PlaceField {
  role: 'place';
}
/** The search text: it has its own box. */
interface SearchField {
  role: 'search';
}
/** A choice among values (kind, model, …). */
interface ChoiceField<V> extends Described<V> {
  role: 'choice';
  /**
   * A choice among fixed values gets its menu in the filter bar from here (its name, "all" and each
   * value's words); kind and model have controls of their own (counts, the account's models).
   */
  menu?: { label: string; testid: string; all: string; options: readonly { value: V; label: string }[] };
}
/** A day bound (the date filter). */
interface DateField extends Described<string> {
  role: 'date';
}
/** An on/off chip in the filter bar. */
interface ChipField extends Described<boolean> {
  role: 'chip';
  label: string;
  title: string;
  glyph: Glyph;
  testid: string;
  count(value: boolean, counts: AssetCountsInfo): number | null;
  /** Shown only while the counts report some (or it is on). */
  whenCounted?: boolean;
}

type FieldEntry<K extends FilterField> =
  NonNullable<AssetFilter[K]> extends boolean
    ? ChipField | PlaceField
    : PlaceField | SearchField | ChoiceField<NonNullable<AssetFilter[K]>> | DateField;

/** A flag's words: its label when on, "not …" when it asks for the opposite. */
const flagWords = (label: string) => (on: boolean) => (on ? label : `Not ${label.toLowerCase()}`);

/** A local day from an ISO time; an exclusive end is the day before it. */
const dayOf = (iso: string, exclusiveEnd = false): string => {
  const time = Date.parse(iso);
  return Number.isFinite(time) ? localDay(time - (exclusiveEnd ? 1 : 0)) : '';
};

/** The flag filter's values in words. */
const FLAG_WORDS = { pick: 'Picks', reject: 'Rejected', unflagged: 'Not flagged' } as const;

export const FILTER_FIELDS: { [K in FilterField]-?: FieldEntry<K> } = {
  kind: {
    role: 'choice',
    describe: (kind) => (kind === 'image' ? 'Images' : 'Videos'),
    count: (kind, counts) => (kind === 'image' ? counts.images : counts.videos),
  },
  origin: { role: 'place' },
  modelId: {
    role: 'choice',
    describe: (id, modelName) => modelName(id),
    count: (id, counts) => counts.byModel.find((m) => m.modelId === id)?.count ?? 0,
  },
  offline: {
    role: 'chip',
    label: 'Offline',
    testid: 'filter-offline',
    title: 'Only items with a local copy (available offline)',
    glyph: hardDrive,
    describe: flagWords('Offline'),
    count: (on, counts) => (on ? counts.offline : null),
  },
  favorite: {
    role: 'chip',
    label: 'Favourites',
    testid: 'filter-favorites',
    title: 'Starred on this computer (F). Kept locally: the service has no favourites to set.',
    glyph: star,
    describe: flagWords('Favourites'),
    count: (on, counts) => (on ? counts.favorites : null),
  },
  liked: {
    role: 'chip',
    label: 'Liked on service',
    testid: 'filter-liked',
    title: 'Liked on the service (it reports likes; they cannot be set from here)',
    glyph: heart,
    whenCounted: true,
    describe: flagWords('Liked on service'),
    count: (on, counts) => (on ? counts.liked : null),
  },
  orientation: {
    role: 'choice',
    describe: (shape) => ({ portrait: 'Portrait', landscape: 'Landscape', square: 'Square' })[shape],
    menu: {
      label: 'Orientation',
      testid: 'filter-orientation',
      all: 'Any shape',
      options: [
        { value: 'portrait', label: 'Portrait' },
        { value: 'landscape', label: 'Landscape' },
        { value: 'square', label: 'Square' },
      ],
    },
  },
  collectionId: { role: 'place' },
  dateFrom: { role: 'date', describe: (iso) => `From ${formatDay(dayOf(iso))}` },
  dateTo: { role: 'date', describe: (iso) => `Until ${formatDay(dayOf(iso, true))}` },
  query: { role: 'search' },
  minRating: {
    role: 'choice',
    describe: (stars) => (stars >= RATING_MAX ? `★ ${RATING_MAX}` : `★ ${stars} or more`),
    count: (stars, counts) => counts.byRating.slice(stars).reduce((sum, n) => sum + n, 0),
    menu: {
      label: 'Rating',
      testid: 'filter-rating',
      all: 'Any rating',
      options: [1, 2, 3, 4, 5].map((stars) => ({
        value: stars,
        label: stars === RATING_MAX ? `★ ${stars}` : `★ ${stars} or more`,
      })),
    },
  },
  flag: {
    role: 'choice',
    describe: (flag) => FLAG_WORDS[flag],
    count: (flag, counts) =>
      flag === 'pick'
        ? counts.picks
        : flag === 'reject'
          ? counts.rejects
          : counts.total - counts.picks - counts.rejects,
    menu: {
      label: 'Flag',
      testid: 'filter-flag',
      all: 'Any flag',
      options: (['pick', 'reject', 'unflagged'] as const).map((flag) => ({ value: flag, label: FLAG_WORDS[flag] })),
    },
  },
};

const FIELDS = Object.keys(FILTER_FIELDS) as FilterField[];

/** The chips of the filter bar, in the table's order. */
export const CHIP_FIELDS = FIELDS.flatMap((field) => {
  const entry = FILTER_FIELDS[field];
  return entry.role === 'chip' ? [{ field: field as FlagField, ...entry }] : [];
});

/** The choices the filter bar offers as menus drawn from this table, in its order. */
export const MENU_FIELDS = FIELDS.flatMap((field) => {
  const entry = FILTER_FIELDS[field];
  return entry.role === 'choice' && 'menu' in entry && entry.menu
    ? [{ field, menu: entry.menu as NonNullable<ChoiceField<string | number>['menu']> }]
    : [];
});

/** The fields that narrow what a place shows (not the place, not the search text), in the table's order. */
export function narrowing(filter: AssetFilter): FilterField[] {
  return FIELDS.filter((field) => {
    const role = FILTER_FIELDS[field].role;
    return filter[field] !== undefined && role !== 'place' && role !== 'search';
  });
}

/** The narrowing fields in words, e.g. ["Images", "Offline"]. */
export function describeFilters(filter: AssetFilter, modelName: ModelName): string[] {
  return narrowing(filter).map((field) => {
    const entry = FILTER_FIELDS[field] as Described<unknown>;
    return entry.describe(filter[field], modelName);
  });
}

/** How many assets the filter holds in its place, when one narrowing field (or none) and the counts tell it. */
export function countedTotal(filter: AssetFilter, counts: AssetCountsInfo): number | null {
  const fields = narrowing(filter);
  if (fields.length === 0) return counts.total;
  const [field] = fields;
  if (fields.length > 1 || field === undefined) return null;
  const entry = FILTER_FIELDS[field] as Described<unknown>;
  return entry.count?.(filter[field], counts) ?? null;
}

/** The local days (YYYY-MM-DD, both inclusive; '' = open) of a filter's dates, for the date picker. */
export function filterDays(filter: AssetFilter): { from: string; to: string } {
  return {
    from: filter.dateFrom ? dayOf(filter.dateFrom) : '',
    to: filter.dateTo ? dayOf(filter.dateTo, true) : '',
  };
}
