import { describe, expect, it } from 'vitest';
import { safeNext, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('returns to a remembered page of the same role', () => {
    expect(safeRedirect({ pathname: '/admin/shops' }, 'admin')).toBe('/admin/shops');
    expect(safeRedirect('/user/offers', 'user')).toBe('/user/offers');
  });

  it('keeps the query string and hash of a remembered location', () => {
    expect(safeRedirect({ pathname: '/user/shops', search: '?category=Food', hash: '#top' }, 'user')).toBe(
      '/user/shops?category=Food#top',
    );
  });

  it('goes to the dashboard when the page belongs to another role', () => {
    expect(safeRedirect({ pathname: '/admin/dashboard' }, 'user')).toBe('/user/dashboard');
    expect(safeRedirect({ pathname: '/user/compare' }, 'admin')).toBe('/admin/dashboard');
  });

  it('goes to the dashboard when nothing usable was remembered', () => {
    expect(safeRedirect(undefined, 'user')).toBe('/user/dashboard');
    expect(safeRedirect(null, 'admin')).toBe('/admin/dashboard');
    expect(safeRedirect({ pathname: 42 }, 'user')).toBe('/user/dashboard');
    expect(safeRedirect({}, 'user')).toBe('/user/dashboard');
  });

  it('goes to the dashboard for public pages and bare role prefixes', () => {
    expect(safeRedirect({ pathname: '/' }, 'user')).toBe('/user/dashboard');
    expect(safeRedirect({ pathname: '/login' }, 'admin')).toBe('/admin/dashboard');
    expect(safeRedirect({ pathname: '/user' }, 'user')).toBe('/user/dashboard');
    expect(safeRedirect({ pathname: '/user/' }, 'user')).toBe('/user/dashboard');
    expect(safeRedirect({ pathname: '/username/x' }, 'user')).toBe('/user/dashboard');
  });

  it('refuses paths that could resolve outside the role area or the site', () => {
    expect(safeRedirect('/user/../admin/dashboard', 'user')).toBe('/user/dashboard');
    expect(safeRedirect('/user/./x', 'user')).toBe('/user/dashboard');
    expect(safeRedirect('/user//evil.example', 'user')).toBe('/user/dashboard');
    expect(safeRedirect('/user/\\evil.example', 'user')).toBe('/user/dashboard');
    expect(safeRedirect('//evil.example/user/x', 'user')).toBe('/user/dashboard');
    expect(safeRedirect('https://evil.example/user/x', 'user')).toBe('/user/dashboard');
  });
});

describe('safeNext', () => {
  it('keeps a path on this site, with its query', () => {
    expect(safeNext('/manage/invite')).toBe('/manage/invite');
    expect(safeNext('/user/shops?category=Food')).toBe('/user/shops?category=Food');
  });

  it('refuses anything a browser could take to another site', () => {
    for (const next of [
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      'manage/invite',
      '/manage//x',
      '/manage/../admin',
      '/x\u0000y',
      '/x\ty',
      '',
    ]) {
      expect(safeNext(next), next).toBeNull();
    }
    expect(safeNext(null)).toBeNull();
    expect(safeNext(undefined)).toBeNull();
  });
});
