// Transient notices: from the core ('app:notice') and from the renderer's own actions.
import type { NoticeInfo } from '@contract/ipc/app.ts';
import { on } from '../ipc.ts';

/** A button on a toast (e.g. Undo): pressing it runs `run` and dismisses the toast. */
export interface ToastAction {
  label: string;
  run: () => void;
}

export interface ToastItem extends NoticeInfo {
  id: number;
  action?: ToastAction;
}

/** Errors stay until dismissed; the rest fade after a while. */
const AUTO_DISMISS_MS = { info: 5000, warning: 8000, error: null } as const;
const MAX_VISIBLE = 4;

class Toasts {
  items = $state<ToastItem[]>([]);
  #nextId = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();
  /** The toast regions (ui/ToastRegion.svelte) in the order they appeared: the page's, then each open modal's. */
  #hosts = $state<number[]>([]);
  #nextHost = 1;
  /** Counts dialogs opening and closing anywhere in the page: the top region raises itself after each. */
  layerChanges = $state(0);
  #layerWatch: { observer: MutationObserver; users: number } | null = null;

  addHost(): number {
    const id = this.#nextHost++;
    this.#hosts = [...this.#hosts, id];
    return id;
  }

  removeHost(id: number): void {
    this.#hosts = this.#hosts.filter((host) => host !== id);
  }

  /** The newest region is the one inside the topmost modal (or the page's, with none open): it shows the toasts. */
  isTop(id: number): boolean {
    return this.#hosts.at(-1) === id;
  }

  /** Follows every dialog's `open` (showModal, close) while any region needs it. */
  watchLayers(): () => void {
    if (!this.#layerWatch) {
      const observer = new MutationObserver(() => (this.layerChanges += 1));
      observer.observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ['open'] });
      this.#layerWatch = { observer, users: 0 };
    }
    const watch = this.#layerWatch;
    watch.users += 1;
    return () => {
      watch.users -= 1;
      if (watch.users > 0 || this.#layerWatch !== watch) return;
      watch.observer.disconnect();
      this.#layerWatch = null;
    };
  }

  show(level: NoticeInfo['level'], message: string, action?: ToastAction): void {
    const id = this.#nextId++;
    this.items = [...this.items, { id, level, message, ...(action ? { action } : {}) }].slice(-MAX_VISIBLE);
    // A toast with a button stays a while longer, so there is time to press it.
    const delay = AUTO_DISMISS_MS[level] === null ? null : AUTO_DISMISS_MS[level] * (action ? 2 : 1);
    if (delay !== null)
      this.#timers.set(
        id,
        setTimeout(() => this.dismiss(id), delay),
      );
  }

  info(message: string, action?: ToastAction): void {
    this.show('info', message, action);
  }

  error(message: string): void {
    this.show('error', message);
  }

  dismiss(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.items = this.items.filter((t) => t.id !== id);
  }

  listen(): () => void {
    return on('app:notice', (notice) => this.show(notice.level, notice.message));
  }
}

export const toasts = new Toasts();
