// What a server's answers link to: every http(s) URL of the API in a few of its answers (the
// root, each list's first two pages, three records of each kind), each answered 200. For the
// tests of a server owning what it serves (test/mirror-ownership.test.ts and its heavy half).

import { expect } from 'vitest';

/** Every http(s) URL in some answers of the server: the root, a list page, records of each kind. */
export async function linksOf(origin: string): Promise<string[]> {
  const urls: string[] = [];
  const get = async (url: string) => {
    const res = await fetch(url);
    expect(res.status, url).toBe(200);
    const text = await res.text();
    urls.push(...(text.match(/https?:\/\/[^"\s]+/g) ?? []));
    return JSON.parse(text) as { results?: Array<{ apiURL: string }>; nextPageURL?: string | null };
  };
  await get(`${origin}/api/v1`);
  for (const c of ['entries', 'categories', 'topics']) {
    const page = await get(`${origin}/api/v1/${c}`);
    for (const item of (page.results ?? []).slice(0, 3)) await get(item.apiURL.replace(/^https?:\/\/[^/]+/, origin));
    if (page.nextPageURL) await get(page.nextPageURL.replace(/^https?:\/\/[^/]+/, origin));
  }
  return urls.filter((u) => u.includes('/api/'));
}
