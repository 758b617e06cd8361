// The sidebar's destinations, in order, with their icons and shortcut digits.
import {
  boxes,
  chartColumn,
  clapperboard,
  flaskConical,
  imagePlus,
  layoutGrid,
  listChecks,
  settings,
  type Glyph,
} from '../ui/glyphs.ts';
import type { View } from '../../state/router.svelte.ts';

export interface NavItem {
  view: View;
  label: string;
  icon: Glyph;
}

export const NAV_ITEMS: NavItem[] = [
  { view: 'create-image', label: 'Create image', icon: imagePlus },
  { view: 'create-video', label: 'Create video', icon: clapperboard },
  { view: 'models', label: 'Models', icon: boxes },
  { view: 'library', label: 'Library', icon: layoutGrid },
  { view: 'jobs', label: 'Jobs', icon: listChecks },
  { view: 'experiments', label: 'Experiments', icon: flaskConical },
  { view: 'spending', label: 'Spending', icon: chartColumn },
  { view: 'settings', label: 'Settings', icon: settings },
];
