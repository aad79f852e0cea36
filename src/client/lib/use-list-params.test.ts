import { describe, expect, it } from 'vitest';
import { listUrl, pageFrom, readListParams, applySearch as search } from './use-list-params';

describe('listUrl: a list writes its own URL, and nothing once the browser has left it', () => {
  it("writes the search into the list's query string, keeping its filters and leaving page 1", () => {
    const now = { pathname: '/admin/products', search: '?shopId=s1&page=3' };
    expect(listUrl('/admin/products', now, search('bean there'))).toBe(
      '/admin/products?shopId=s1&q=bean+there',
    );
    const searched = { pathname: '/admin/products', search: '?shopId=s1&q=bean&page=2' };
    expect(listUrl('/admin/products', searched, search(''))).toBe('/admin/products?shopId=s1');
  });

  it('never navigates away from where the browser is (an Edit link clicked while the form loads)', () => {
    // the list's timer comes due after the click: the browser is at the form, the list still on screen
    expect(listUrl('/admin/shops', { pathname: '/admin/shops/abc', search: '' }, search('Zara'))).toBeNull();
    expect(
      listUrl('/manage/shops/s1', { pathname: '/manage/shops/s1/products/p1', search: '' }, search('Scarf')),
    ).toBeNull();
    // another list entirely (the nav link to products clicked)
    expect(
      listUrl('/admin/shops', { pathname: '/admin/products', search: '?q=x' }, search('Zara')),
    ).toBeNull();
    // a page change too
    const page2 = (params: URLSearchParams) => params.set('page', '2');
    expect(listUrl('/admin/shops', { pathname: '/admin/shops/new', search: '' }, page2)).toBeNull();
  });

  it('does nothing when nothing changes (the search the URL already has)', () => {
    const now = { pathname: '/admin/shops', search: '?q=zara' };
    expect(listUrl('/admin/shops', now, search('zara '))).toBeNull();
    expect(listUrl('/admin/shops', { pathname: '/admin/shops', search: '' }, search('   '))).toBeNull();
  });

  it('writes onto the query string the browser has now, and keeps its hash', () => {
    // a filter chosen a moment ago, its screen not rendered yet: the search keeps it
    const now = { pathname: '/admin/offers', search: '?status=pending', hash: '#top' };
    expect(listUrl('/admin/offers', now, search('sale'))).toBe('/admin/offers?status=pending&q=sale#top');
  });
});

describe('readListParams and pageFrom', () => {
  it('trims the search and reads anything but a whole page from 1 as page 1', () => {
    expect(readListParams(new URLSearchParams('q=%20zara%20&page=2'))).toEqual({ q: 'zara', page: 2 });
    for (const page of ['0', '-1', '1.5', 'x', '']) expect(pageFrom(new URLSearchParams({ page }))).toBe(1);
  });
});
