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
    const byCategory = new Map<string, Preset[]>();
    for (const preset of matches) {
      const category = preset.category || 'Other';
      byCategory.set(category, [...(byCategory.get(category) ?? []), preset]);
    }
    return [...byCategory]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([category, presets]) => ({ category, presets: presets.sort((a, b) => a.name.localeCompare(b.name)) }));
  });

  nameOf(tag: string | undefined): string | undefined {
    return tag === undefined ? undefined : (this.items.find((p) => p.tag === tag)?.name ?? tag);
  }
}

export const presets = new PresetsState();
