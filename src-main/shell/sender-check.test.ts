import { describe, expect, it } from 'vitest';
import { isAppUrl } from './app-url.ts';
import { senderRefusal } from './sender-check.ts';

const top = (url: string) => ({ url, parent: null });

describe('senderRefusal', () => {
  it('trusts the top frame of our window showing the app', () => {
    expect(senderRefusal({ frame: top('atelier://app/index.html'), fromOurWindow: true }, isAppUrl)).toBeNull();
  });

  it('refuses sub-frames even when they show an app URL', () => {
    const frame = { url: 'atelier://app/index.html', parent: top('atelier://app/index.html') };
    expect(senderRefusal({ frame, fromOurWindow: true }, isAppUrl)).toBe('a sub-frame');
  });

  it('refuses a foreign page in our window', () => {
    expect(senderRefusal({ frame: top('https://evil.example/'), fromOurWindow: true }, isAppUrl)).toBe(
      'a page that is not the app',
    );
    expect(senderRefusal({ frame: top('file:///etc/passwd'), fromOurWindow: true }, isAppUrl)).toBe(
      'a page that is not the app',
    );
    expect(senderRefusal({ frame: top('atelier://evil/index.html'), fromOurWindow: true }, isAppUrl)).toBe(
      'a page that is not the app',
    );
  });

  it('refuses windows we did not create and frames that are gone', () => {
    expect(senderRefusal({ frame: top('atelier://app/'), fromOurWindow: false }, isAppUrl)).toBe(
      'not one of our windows',
    );
    expect(senderRefusal({ frame: null, fromOurWindow: true }, isAppUrl)).toBe('the sending frame is gone');
  });
});
