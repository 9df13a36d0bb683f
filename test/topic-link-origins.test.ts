// Links to topics' pages in entries, matched as the reference service matches them: on each
// configured origin (siteOrigin, linkOrigins) by http or https, with or without `www.`; the old
// form `<origin>/p/<id>.php` rewritten to the topic template's path, as the reference rewrites it.
// Links already accepted keep their bytes.

import { describe, expect, it } from 'vitest';
import { rewriteOldTopicLinks, topicLinks } from '../generator/content/derive.ts';
import { loadContent } from '../generator/content/load.ts';
import { entryFile, problemsOf, smallSite, writeContent } from './helpers/content.ts';

const PEPYS = ['https://www.pepysdiary.com'];
const a = (href: string) => `<a href="${href}">x</a>`;

describe('topic links on a configured origin', () => {
  it('are matched by http or https, with or without www., in any case', () => {
    const html = [
      a('https://www.pepysdiary.com/encyclopedia/1/'),
      a('http://www.pepysdiary.com/encyclopedia/2/'),
      a('https://pepysdiary.com/encyclopedia/3/'),
      a('http://pepysdiary.com/encyclopedia/4'),
      a('//pepysdiary.com/encyclopedia/5/#note'),
      a('HTTPS://WWW.PEPYSDIARY.COM/encyclopedia/6/'),
      `<a href='/encyclopedia/7/'>relative</a>`,
      // Not the origin: another host, a longer one, another scheme, another port.
      a('https://notpepysdiary.com/encyclopedia/20/'),
      a('https://pepysdiary.com.evil.test/encyclopedia/21/'),
      a('https://www.pepysdiary.community/encyclopedia/22/'),
      a('ftp://pepysdiary.com/encyclopedia/23/'),
      a('https://www.pepysdiary.com:8443/encyclopedia/24/'),
      a('https://wwwpepysdiary.com/encyclopedia/25/'),
    ].join('\n');
    expect(topicLinks(html, PEPYS).map((l) => l.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // An origin given without www. matches with it too; a port, only with it.
    expect(topicLinks(a('https://www.site.test/encyclopedia/8/'), ['https://site.test']).map((l) => l.id)).toEqual([8]);
    expect(topicLinks(a('http://site.test:8080/encyclopedia/9/'), ['https://site.test:8080']).map((l) => l.id)).toEqual(
      [9],
    );
  });

  it('in the old form /p/<id>.php are rewritten to the template’s path, on the origin as written', () => {
    const html = `<p>${a('http://pepysdiary.com/p/12.php')} ${a('https://www.pepysdiary.com/p/13.php#c')}</p>`;
    expect(rewriteOldTopicLinks(html, PEPYS)).toBe(
      `<p>${a('http://pepysdiary.com/encyclopedia/12/')} ${a('https://www.pepysdiary.com/encyclopedia/13/#c')}</p>`,
    );
    expect(rewriteOldTopicLinks(a('https://diary.test/p/14.php'), ['https://diary.test'], '{site}/t/{id}.html')).toBe(
      a('https://diary.test/t/14.html'),
    );
    // Not on a configured origin, relative, or not the old form: kept as written (the same string).
    for (const kept of [
      a('https://elsewhere.test/p/15.php'),
      a('/p/16.php'),
      a('https://www.pepysdiary.com/p/17.phpx'),
      '<p>pepysdiary.com/p/18.php</p>',
    ])
      expect(rewriteOldTopicLinks(kept, PEPYS)).toBe(kept);
    const plain = '<p>no link at all</p>';
    expect(rewriteOldTopicLinks(plain, PEPYS)).toBe(plain);
  });

  it('make an entry mention the topics, rewrite only old-form links, and locate a link to no topic', async () => {
    const accepted = `<p>${a('https://www.pepysdiary.com/encyclopedia/1/')}</p>`;
    const body = [
      accepted,
      `<p>${a('http://pepysdiary.com/p/2.php')} and ${a('http://pepysdiary.com/encyclopedia/1/')}</p>`,
      '<!-- footnotes -->',
      `<p>${a('https://pepysdiary.com/encyclopedia/2')}</p>`,
    ].join('\n');
    const { model } = await loadContent(
      writeContent({ ...smallSite(), 'entries/1661/1661-01-20.html': entryFile('1661-01-20', '', body) }),
    );
    const entry = model.entries.find((e) => e.date === '1661-01-20');
    expect(entry?.topicIds).toEqual([1, 2]);
    expect(entry?.entryHTML).toBe(
      `${accepted}\n<p>${a('http://pepysdiary.com/encyclopedia/2/')} and ${a('http://pepysdiary.com/encyclopedia/1/')}</p>`,
    );
    expect(entry?.footnotesHTML).toBe(`<p>${a('https://pepysdiary.com/encyclopedia/2')}</p>`);
    // Links already accepted keep their bytes: the entry of a link on https://www. is as written.
    const { model: same } = await loadContent(
      writeContent({ ...smallSite(), 'entries/1661/1661-01-20.html': entryFile('1661-01-20', '', accepted) }),
    );
    expect(same.entries.find((e) => e.date === '1661-01-20')?.entryHTML).toBe(accepted);

    const problems = await problemsOf({
      ...smallSite(),
      'entries/1661/1661-01-20.html': entryFile(
        '1661-01-20',
        '',
        `<p>${a('http://pepysdiary.com/p/1.php')} ${a('http://pepysdiary.com/p/1.php')}</p>\n<p>${a('http://www.pepysdiary.com/p/404.php')}</p>`,
      ),
    });
    expect(problems).toEqual([
      {
        file: 'entries/1661/1661-01-20.html',
        line: 5,
        message: 'a link to the page of topic 404, which does not exist',
      },
    ]);
  });
});
