// Transient notices: from the core ('app:notice') and from the renderer's own actions.
import type { NoticeInfo } from '@contract/ipc/app.ts';
import { on } from '../ipc.ts';

export interface ToastItem extends NoticeInfo {
  id: number;
}

/** Errors stay until dismissed; the rest fade after a while. */
const AUTO_DISMISS_MS = { info: 5000, warning: 8000, error: null } as const;
const MAX_VISIBLE = 4;

class Toasts {
  items = $state<ToastItem[]>([]);
  #nextId = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  show(level: NoticeInfo['level'], message: string): void {
    const id = this.#nextId++;
    this.items = [...this.items, { id, level, message }].slice(-MAX_VISIBLE);
    const delay = AUTO_DISMISS_MS[level];
    if (delay !== null)
      this.#timers.set(
        id,
        setTimeout(() => this.dismiss(id), delay),
      );
  }

  info(message: string): void {
    this.show('info', message);
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
