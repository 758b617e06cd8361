// The sidebar's destinations, in order, with their icons and shortcut digits.
import { Clapperboard, Boxes, ImagePlus, LayoutGrid, ListChecks, Settings } from '@lucide/svelte';
import type { Component } from 'svelte';
import type { View } from '../../state/router.svelte.ts';

export interface NavItem {
  view: View;
  label: string;
  icon: Component<{ size?: number | string }>;
}

export const NAV_ITEMS: NavItem[] = [
  { view: 'create-image', label: 'Create image', icon: ImagePlus },
  { view: 'create-video', label: 'Create video', icon: Clapperboard },
  { view: 'models', label: 'Models', icon: Boxes },
  { view: 'library', label: 'Library', icon: LayoutGrid },
  { view: 'jobs', label: 'Jobs', icon: ListChecks },
  { view: 'settings', label: 'Settings', icon: Settings },
];
