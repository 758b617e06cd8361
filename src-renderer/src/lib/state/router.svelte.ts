// The in-app router: which main view is shown, mirrored in the URL hash so a reload stays put.

export const VIEWS = [
  'create-image',
  'create-video',
  'models',
  'library',
  'jobs',
  'experiments',
  'spending',
  'settings',
] as const;
export type View = (typeof VIEWS)[number];

const isView = (value: string): value is View => (VIEWS as readonly string[]).includes(value);

const fromHash = (hash: string): View | null => {
  const name = hash.replace(/^#\/?/, '');
  return isView(name) ? name : null;
};

class Router {
  view = $state<View>(fromHash(window.location.hash) ?? 'create-image');

  go(view: View): void {
    this.view = view;
    const hash = `#/${view}`;
    if (window.location.hash !== hash) history.replaceState(null, '', hash);
  }

  /** Follows hash changes made outside go() (e.g. a link); returns the unsubscribe. */
  listen(): () => void {
    const onHash = () => {
      const view = fromHash(window.location.hash);
      if (view) this.view = view;
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }
}

export const router = new Router();
