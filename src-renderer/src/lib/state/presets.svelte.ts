// Public presets (GET /presets, cached by the core) grouped by category and filtered by a search query,
// for the preset picker. While the cache holds none, the picker falls back to typing a tag.
import { accountBound } from '../account-scope.ts';
import type { PresetInfo as Preset } from '@contract/ipc/presets.ts';
import { invoke, on } from '../ipc.ts';

export interface PresetGroup {
  category: string;
  presets: Preset[];
}

class PresetsState {
  items = $state<Preset[]>([]);
  query = $state('');

  constructor() {
    accountBound<PresetsState>(this, () => ({ items: [] }), { reload: () => this.load() });
  }

  readonly available = $derived(this.items.length > 0);

  async load(): Promise<void> {
    const result = await invoke('presets:list');
    if (result.ok) this.items = result.value;
  }

  listen(): () => void {
    return on('sync:changed', (sync) => {
      if (sync.presets !== null) void this.load();
    });
  }

  readonly groups: PresetGroup[] = $derived.by(() => {
    const q = this.query.trim().toLowerCase();
    const matches = q
      ? this.items.filter((p) => `${p.name} ${p.tag} ${p.category}`.toLowerCase().includes(q))
      : this.items;
    // Categories in the order they first appear (the service's), presets without one last, as "Other".
    const groups: PresetGroup[] = [];
    for (const preset of matches) {
      const category = preset.category || 'Other';
      const group = groups.find((g) => g.category === category);
      if (group) group.presets.push(preset);
      else groups.push({ category, presets: [preset] });
    }
    return [...groups.filter((g) => g.category !== 'Other'), ...groups.filter((g) => g.category === 'Other')];
  });

  nameOf(tag: string | undefined): string | undefined {
    return tag === undefined ? undefined : (this.items.find((p) => p.tag === tag)?.name ?? tag);
  }
}

export const presets = new PresetsState();
