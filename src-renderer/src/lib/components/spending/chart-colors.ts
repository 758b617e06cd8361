// The theme's colours for a canvas, which cannot read CSS: each token resolved the way the page
// resolves it now (light or dark, system or chosen), through a probe element. Read again when the
// theme changes (watchTheme).

export interface ChartColors {
  bar: string;
  barOver: string;
  cap: string;
  text: string;
  muted: string;
  grid: string;
  tooltipBg: string;
  font: string;
}

function resolve(probe: HTMLElement, token: string): string {
  probe.style.color = `var(${token})`;
  return getComputedStyle(probe).color;
}

export function chartColors(host: HTMLElement): ChartColors {
  const probe = document.createElement('span');
  probe.hidden = true;
  host.appendChild(probe);
  try {
    return {
      bar: resolve(probe, '--accent'),
      barOver: resolve(probe, '--danger'),
      cap: resolve(probe, '--warning'),
      text: resolve(probe, '--fg'),
      muted: resolve(probe, '--fg-muted'),
      grid: resolve(probe, '--border'),
      tooltipBg: resolve(probe, '--bg-raised'),
      font: getComputedStyle(host).fontFamily,
    };
  } finally {
    probe.remove();
  }
}

/** Calls `changed` when the page's theme may have changed (the setting, or the system's scheme); returns the stop. */
export function watchTheme(changed: () => void): () => void {
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const scheme = window.matchMedia('(prefers-color-scheme: dark)');
  scheme.addEventListener('change', changed);
  return () => {
    observer.disconnect();
    scheme.removeEventListener('change', changed);
  };
}
