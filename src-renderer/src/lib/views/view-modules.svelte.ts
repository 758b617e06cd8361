// The views besides the Library, each its own chunk loaded on first visit: the bundle a start
// evaluates holds only the frame and the Library (the bench's first screen). A view's chunk is
// asked for as early as its name is known (the address at start, a sidebar link pointed at).
import type { Component } from 'svelte';
import type { View } from '../state/router.svelte.ts';

export type LoadedView = Exclude<View, 'library'> | 'first-run';

const LOADERS: Record<LoadedView, () => Promise<{ default: Component }>> = {
  'create-image': () => import('./CreateImageView.svelte'),
  'create-video': () => import('./CreateVideoView.svelte'),
  models: () => import('./ModelsView.svelte'),
  jobs: () => import('./JobsView.svelte'),
  experiments: () => import('./ExperimentsView.svelte'),
  spending: () => import('./SpendingView.svelte'),
  settings: () => import('./SettingsView.svelte'),
  'first-run': () => import('./FirstRunView.svelte'),
};

export const isLoadedView = (view: View | 'first-run'): view is LoadedView => view in LOADERS;

class ViewModules {
  #components = $state<Partial<Record<LoadedView, Component>>>({});
  #failures = $state<Partial<Record<LoadedView, string>>>({});
  #loading = new Map<LoadedView, Promise<void>>();

  /** The view's component once loaded (undefined before; reading it starts the load). */
  component(view: LoadedView): Component | undefined {
    const component = this.#components[view];
    if (!component) this.load(view);
    return component;
  }

  /** Why the view could not be loaded (its chunk missing after an update, say), else null. */
  failure(view: LoadedView): string | null {
    return this.#failures[view] ?? null;
  }

  /** Starts loading the view's chunk (once; again after a failure). */
  load(view: LoadedView): void {
    if (this.#loading.has(view)) return;
    const loading = LOADERS[view]()
      .then((module) => {
        this.#components[view] = module.default;
        delete this.#failures[view];
      })
      .catch((error: unknown) => {
        this.#loading.delete(view);
        this.#failures[view] = `This screen could not be loaded (${(error as Error).message}). Reload the window.`;
      });
    this.#loading.set(view, loading);
  }
}

export const viewModules = new ViewModules();
