// Content negotiation: JSON for every client but one that prefers text/html to JSON.

import { describe, expect, it } from 'vitest';
import { prefersHtml } from '../generator/core/negotiation.ts';

describe('prefersHtml', () => {
  it('is true for what browsers send when they navigate', () => {
    const browsers = [
      // Chromium, Firefox, Safari, old Edge and Internet Explorer
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'text/html, application/xhtml+xml, image/jxr, */*',
      'text/html, */*',
      'TEXT/HTML',
      'text/html;level=1;q=1.0, application/json;q=0.9',
      'text/*',
    ];
    for (const accept of browsers) expect(prefersHtml(accept), accept).toBe(true);
  });

  it('is false for no Accept, anything else, ties between named types, and malformed values', () => {
    const others = [
      null,
      '',
      '   ',
      '*/*',
      'application/json',
      'application/json, text/plain, */*',
      'application/json, */*;q=0.5',
      'text/html, application/json',
      'application/json, text/html',
      'text/html;q=0.5, application/json',
      'text/html;q=0, */*',
      'text/html;q=abc, */*',
      'text/html;q=1.5, application/json',
      'text/*;q=0.1, */*',
      'text/plain',
      'application/*',
      'image/webp,*/*',
      'nonsense',
      ',,;',
      'text/html/extra',
    ];
    for (const accept of others) expect(prefersHtml(accept), String(accept)).toBe(false);
  });
});
