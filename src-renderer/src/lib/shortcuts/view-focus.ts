// Where the focus lands after a navigation: on the new view's main heading (made focusable by script,
// out of the Tab order), so the next Tab starts inside the view and a screen reader reads its name.
// The view may be a chunk still loading: its heading is waited for, a few frames at a time (5 s at most).
import type { View } from '../state/router.svelte.ts';

const WAIT_MS = 5_000;

/** The element of `view` the focus goes to: its h1, else its first control. */
function targetOf(view: View): HTMLElement | null {
  const root = document.querySelector<HTMLElement>(`#main [data-testid="view-${view}"]`);
  if (!root) return null;
  const heading = root.querySelector<HTMLElement>('h1');
  if (heading) {
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    return heading;
  }
  return root.querySelector<HTMLElement>('button:not(:disabled), input:not(:disabled), select, textarea, a[href]');
}

/** Moves the focus into `view` once it is shown; a later navigation supersedes an earlier wait. */
let ticket = 0;
export function focusView(view: View): void {
  const mine = ++ticket;
  const until = performance.now() + WAIT_MS;
  const attempt = () => {
    if (mine !== ticket) return;
    const target = targetOf(view);
    if (target) {
      target.focus({ preventScroll: true });
      return;
    }
    if (performance.now() < until) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/** The element under `#main` a skip link leads to: the Library's grid, Create's results, else the view's heading. */
export function skipTarget(view: View): HTMLElement | null {
  const main = document.getElementById('main');
  const grid =
    main?.querySelector<HTMLElement>('[data-testid="asset-grid"]') ??
    main?.querySelector<HTMLElement>('[data-testid="results"] [data-testid^="result-"]:is(button)') ??
    main?.querySelector<HTMLElement>('section[aria-label="Results"]');
  if (grid) {
    if (grid.tabIndex < 0 && !grid.hasAttribute('tabindex')) grid.tabIndex = -1;
    return grid;
  }
  return targetOf(view);
}
