// Public presets (GET /presets) grouped by category and filtered by a search query, for the preset picker.
// Loaded from the core once a presets channel exists; until then the picker falls back to typing a tag.
import type { Preset } from '@contract/service.ts';

export interface PresetGroup {
  category: string;
  presets: Preset[];
}

class PresetsState {
  items = $state<Preset[]>([]);
  available = $state(false);
  query = $state('');

  readonly groups: PresetGroup[] = $derived.by(() => {
    const q = this.query.trim().toLowerCase();
    const matches = q
      ? this.items.filter((p) => `${p.name} ${p.tag} ${p.category}`.toLowerCase().includes(q))
      : this.items;
    // Categories in the order they first appear (the service's), presets without one last, as "Other".
    const byCategory = new Map<string, Preset[]>();
    for (const preset of matches) {
      const list = byCategory.get(preset.category) ?? [];
      list.push(preset);
      byCategory.set(preset.category, list);
    }
    const named = [...byCategory].filter(([category]) => category !== '');
    const other = byCategory.get('');
    return [
      ...named.map(([category, presets]) => ({ category, presets })),
      ...(other ? [{ category: 'Other', presets: other }] : []),
    ];
  });

  nameOf(tag: string | undefined): string | undefined {
    return tag === undefined ? undefined : (this.items.find((p) => p.tag === tag)?.name ?? tag);
  }
}

export const presets = new PresetsState();
