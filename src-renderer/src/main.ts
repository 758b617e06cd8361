// Renderer entry: keeps the page from navigating away, then mounts the Svelte app.
import { mount } from 'svelte';
import { installNavigationGuard, type NavigationLike } from '@contract/navigation-guard.ts';
import App from './App.svelte';
import { invoke } from './lib/ipc.ts';
import './app.css';

// Chromium's Navigation API; absent elsewhere, where the Electron shell's own guard still applies.
const navigation = (window as unknown as { navigation?: NavigationLike }).navigation;
if (navigation) {
  installNavigationGuard(navigation, location.origin, (url) => {
    if (url.startsWith('https://')) void invoke('shell:open-external', { url });
  });
}

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');
export default mount(App, { target });
