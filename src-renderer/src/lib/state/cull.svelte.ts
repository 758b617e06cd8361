// The culling view's state: the one cull open (a session of library/cull-session.svelte.ts), where its
// set came from, the remembered auto-advance and layout, and the ways in: the Library's selection, the
// Library's current view (a search, a filter, a collection: all its items), a finished job's outputs.
import { accountBound } from '../account-scope.ts';
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { ASSETS_PER_CALL } from '@contract/ipc/library.ts';
import { invoke, on } from '../ipc.ts';
import { assetKey } from '../library/asset-key.ts';
import { CullSession, SURVEY_SIZES, type CullLayout, type SurveySize } from '../library/cull-session.svelte.ts';
import { formatCount } from '../library/format.ts';
import { library } from './library/list.svelte.ts';
import { toasts } from './toasts.svelte.ts';

const AUTO_ADVANCE_KEY = 'atelier.cull.autoAdvance';
const LAYOUT_KEY = 'atelier.cull.layout';

function remembered(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode): the choice lasts for the session.
  }
}

class CullState {
  session = $state.raw<CullSession | null>(null);
  /** What is being culled, in words ("3 selected", "Search “fox”", "Job outputs"). */
  source = $state('');

  constructor() {
    accountBound<CullState>(this, () => ({ session: null, source: '' }));
  }

  readonly isOpen = $derived(this.session !== null);

  /** Starts a cull of `items` (at most one action's worth), in their order. */
  open(items: readonly AssetInfo[], source: string): void {
    if (items.length === 0) {
      toasts.error('There is nothing to cull here.');
      return;
    }
    const layout = remembered(LAYOUT_KEY);
    const [survey, size] = (layout ?? 'loupe').split(':');
    const session = new CullSession(items.slice(0, ASSETS_PER_CALL), {
      marker: async (ref, change) => {
        const result = await invoke('assets:mark', { assets: [ref], ...change });
        return result.ok ? { ok: true } : { ok: false, message: result.error.message };
      },
      marksOf: (asset) => ({ rating: asset.rating, flag: asset.flag }),
      autoAdvance: remembered(AUTO_ADVANCE_KEY) === '1',
      onError: (message) => toasts.error(`Not marked: ${message}`),
    });
    if (survey === 'survey') session.layout = 'survey';
    const n = Number(size);
    if ((SURVEY_SIZES as readonly number[]).includes(n)) session.surveySize = n as SurveySize;
    this.session = session;
    this.source = source;
    if (items.length > ASSETS_PER_CALL)
      toasts.info(`Culling the first ${formatCount(ASSETS_PER_CALL)}: the most one cull holds.`);
  }

  /** The Library's current view: everything its search, filters or collection show (up to one action's worth). */
  async openLibraryView(source: string): Promise<void> {
    const last = Math.min(library.slots, ASSETS_PER_CALL) - 1;
    if (last < 0) {
      toasts.error('There is nothing to cull here.');
      return;
    }
    const items = await library.withRange(0, last, (found) => found);
    this.open(items, source);
  }

  /** A finished job's outputs, as the library has them now. */
  async openJob(refs: readonly { kind: AssetInfo['kind']; id: string }[], source: string): Promise<void> {
    const results = await Promise.all(refs.map((ref) => invoke('assets:get', { kind: ref.kind, id: ref.id })));
    this.open(
      results.flatMap((result) => (result.ok ? [result.value] : [])),
      source,
    );
  }

  setAutoAdvance(on: boolean): void {
    if (!this.session) return;
    this.session.autoAdvance = on;
    remember(AUTO_ADVANCE_KEY, on ? '1' : '0');
  }

  setLayout(layout: CullLayout, size?: SurveySize): void {
    const session = this.session;
    if (!session) return;
    session.layout = layout;
    if (size) session.surveySize = size;
    remember(LAYOUT_KEY, `${session.layout}:${session.surveySize}`);
  }

  /** Reads again the items the library changed (a local copy removed, marks set elsewhere). */
  listen(): () => void {
    return on('assets:changed', (change) => {
      const session = this.session;
      if (!session) return;
      const held = new Set(session.items.map(assetKey));
      const refs = (change.assets ?? session.items).filter((ref) => held.has(assetKey(ref))).slice(0, 200);
      if (refs.length === 0) return;
      void Promise.all(refs.map((ref) => invoke('assets:get', { kind: ref.kind, id: ref.id }))).then((results) => {
        if (this.session !== session) return;
        const fresh = results.flatMap((result) => (result.ok ? [result.value] : []));
        session.refresh(fresh);
        if (change.reason !== 'organize') return;
        for (const asset of fresh) session.noteMarks(asset, { rating: asset.rating, flag: asset.flag });
      });
    });
  }

  close(): void {
    this.session = null;
    this.source = '';
  }
}

export const cull = new CullState();
