// The sitemap's XML, without a database: urlset and index well-formed with their namespaces, everything
// escaped, 50,000 URLs per file, the base URL from the profile or the request. (What the database gives
// and the routes: plugins/sitemap-robots.api.test.ts.)
import { describe, expect, it } from 'vitest';
import {
  latestLastmod,
  renderSitemapIndex,
  renderUrlset,
  SITEMAP_MAX_URLS,
  type SitemapEntry,
  siteBaseUrl,
  sitemapFiles,
  xmlEscape,
} from './sitemap';
import { childText, elementsNamed, parseXml, textOf } from './well-formed-xml';

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';
const KEY = `${'k'.repeat(43)}-800x600`;

const entries: SitemapEntry[] = [
  { path: '/', lastmod: '2026-11-27T10:00:00Z', images: [`/api/images/${KEY}/1200.webp`] },
  { path: '/shops', lastmod: null, images: [] },
  { path: '/shops/pixel-point', lastmod: '2026-11-20T08:30:00Z', images: [`/api/images/${KEY}/1200.webp`] },
];

describe('renderUrlset', () => {
  it('a urlset in the sitemaps.org 0.9 namespace with Google image entries, well-formed', () => {
    const xml = renderUrlset(entries, 'https://mall.example.com');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset ')).toBe(true);
    const root = parseXml(xml);
    expect(root.name).toBe('urlset');
    expect(root.attributes).toEqual({ xmlns: SITEMAP_NS, 'xmlns:image': IMAGE_NS });
    const urls = elementsNamed(root, 'url');
    expect(urls.map((url) => childText(url, 'loc'))).toEqual([
      'https://mall.example.com/',
      'https://mall.example.com/shops',
      'https://mall.example.com/shops/pixel-point',
    ]);
    expect(urls.map((url) => childText(url, 'lastmod'))).toEqual([
      '2026-11-27T10:00:00Z',
      undefined,
      '2026-11-20T08:30:00Z',
    ]);
    expect(elementsNamed(root, 'image:loc').map(textOf)).toEqual([
      `https://mall.example.com/api/images/${KEY}/1200.webp`,
      `https://mall.example.com/api/images/${KEY}/1200.webp`,
    ]);
    // Each image entry is inside its page's url.
    expect(elementsNamed(urls[1] ?? root, 'image:image')).toEqual([]);
  });

  it('escapes whatever it is given, in every place', () => {
    const xml = renderUrlset(
      [{ path: `/shops/a&b<c>"d'`, lastmod: '<now>', images: ['/x?a=1&b=2'] }],
      'https://m.example/&',
    );
    const root = parseXml(xml);
    expect(childText(elementsNamed(root, 'url')[0] ?? root, 'loc')).toBe(
      `https://m.example/&/shops/a&b<c>"d'`,
    );
    expect(xml).toContain('<loc>https://m.example/&amp;/shops/a&amp;b&lt;c&gt;&quot;d&apos;</loc>');
    expect(xml).toContain('<lastmod>&lt;now&gt;</lastmod>');
    expect(xml).toContain('<image:loc>https://m.example/&amp;/x?a=1&amp;b=2</image:loc>');
  });

  it('no entries: an empty urlset, still well-formed', () => {
    expect(elementsNamed(parseXml(renderUrlset([], 'https://m.example')), 'url')).toEqual([]);
  });
});

describe('renderSitemapIndex', () => {
  it('lists /sitemap-1.xml … /sitemap-n.xml with one date for all, or one each', () => {
    const one = parseXml(renderSitemapIndex(3, 'https://m.example', '2026-11-27T10:00:00Z'));
    expect(one.name).toBe('sitemapindex');
    expect(one.attributes).toEqual({ xmlns: SITEMAP_NS });
    const sitemaps = elementsNamed(one, 'sitemap');
    expect(sitemaps.map((sitemap) => childText(sitemap, 'loc'))).toEqual([
      'https://m.example/sitemap-1.xml',
      'https://m.example/sitemap-2.xml',
      'https://m.example/sitemap-3.xml',
    ]);
    expect(sitemaps.map((sitemap) => childText(sitemap, 'lastmod'))).toEqual([
      '2026-11-27T10:00:00Z',
      '2026-11-27T10:00:00Z',
      '2026-11-27T10:00:00Z',
    ]);
    const each = parseXml(renderSitemapIndex(2, 'https://m.example', ['2026-01-01T00:00:00Z', null]));
    expect(elementsNamed(each, 'sitemap').map((sitemap) => childText(sitemap, 'lastmod'))).toEqual([
      '2026-01-01T00:00:00Z',
      undefined,
    ]);
    expect(elementsNamed(parseXml(renderSitemapIndex(1, 'https://m.example', null)), 'lastmod')).toEqual([]);
  });
});

describe('sitemapFiles and latestLastmod', () => {
  it('at most 50,000 URLs a file, in order', () => {
    const many = Array.from({ length: SITEMAP_MAX_URLS * 2 + 10 }, (_, index) => ({
      path: `/shops/s${index}`,
      lastmod: null,
      images: [],
    }));
    const files = sitemapFiles(many);
    expect(files.map((file) => file.length)).toEqual([50_000, 50_000, 10]);
    expect(files[1]?.[0]?.path).toBe('/shops/s50000');
    expect(sitemapFiles(many.slice(0, SITEMAP_MAX_URLS)).length).toBe(1);
    expect(sitemapFiles([])).toEqual([]);
  });

  it('the latest date of a file; null when none has one', () => {
    expect(latestLastmod(entries)).toBe('2026-11-27T10:00:00Z');
    expect(latestLastmod([{ path: '/', lastmod: null, images: [] }])).toBeNull();
  });
});

describe('xmlEscape', () => {
  it('the five special characters, and drops what XML cannot hold', () => {
    expect(xmlEscape(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&apos;');
    expect(xmlEscape('a\u0000b\u001fc\ud83d\ude00')).toBe('abc\ud83d\ude00');
  });
});

describe('siteBaseUrl', () => {
  it("the profile's public URL when set, else the request's origin; normalised", () => {
    expect(siteBaseUrl('https://mall.example.com', 'http', 'localhost:3000')).toBe(
      'https://mall.example.com',
    );
    expect(siteBaseUrl('https://Mall.Example.com/centre/', 'http', 'x')).toBe(
      'https://mall.example.com/centre',
    );
    expect(siteBaseUrl('', 'https', 'Mall.Example.com')).toBe('https://mall.example.com');
    expect(siteBaseUrl('', 'http', 'localhost:3000')).toBe('http://localhost:3000');
    expect(siteBaseUrl('', 'https', 'mall.example.com:443')).toBe('https://mall.example.com');
    expect(siteBaseUrl('', 'https', 'bücher.example')).toBe('https://xn--bcher-kva.example');
  });

  it('no base from a Host that is not one', () => {
    for (const host of ['', 'evil.example/path', 'a@evil.example', 'x?y', 'x#y', 'a b', 'a<b', 'x\\y'])
      expect(siteBaseUrl('', 'https', host), host).toBeNull();
  });
});

describe('the well-formedness check the tests use', () => {
  it('refuses what is not well-formed XML', () => {
    for (const bad of [
      '<a>&</a>',
      '<a>&nbsp;</a>',
      '<a><b></a></b>',
      '<a></a><b></b>',
      '<a>',
      'text<a/>',
      '<a x="1" x="2"/>',
      '<a x="<"/>',
      '<p:a/>',
      '<a><p:b/></a>',
      '<a>\u0001</a>',
    ])
      expect(() => parseXml(bad), bad).toThrow();
    expect(parseXml('<a xmlns:p="urn:p"><p:b x="&amp;&#38;&#x26;">&lt;</p:b><!-- c --></a>')).toEqual({
      name: 'a',
      attributes: { 'xmlns:p': 'urn:p' },
      children: [{ name: 'p:b', attributes: { x: '&&&' }, children: ['<'] }],
    });
  });
});
