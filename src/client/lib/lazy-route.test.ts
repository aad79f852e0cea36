import { createElement, type ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../shared/auth';
import { type GuardHandle, lazyRoute, preloadMatches } from './lazy-route';

// the admin guard's rule (components/require-role.tsx's admitsRole('admin'))
const adminsOnly: GuardHandle = { admits: (person) => person?.role === 'admin' };

/** A guard route (admin) above a layout and a page, each with a chunk and reads to count. */
function routesWithSpies() {
  const layout = { preload: vi.fn(async () => undefined), prefetch: vi.fn(async () => undefined) };
  const page = { preload: vi.fn(async () => undefined), prefetch: vi.fn(async () => undefined) };
  const routes: RouteObject[] = [
    {
      handle: adminsOnly,
      children: [{ handle: layout, children: [{ path: 'admin/dashboard', handle: page }] }],
    },
  ];
  return { routes, layout, page };
}

const user = (role: 'admin' | 'user', managedShopIds: string[] = []) =>
  ({ id: 'u1', email: 'a@example.com', role, managedShopIds }) as unknown as SessionUser;
const at = { pathname: '/admin/dashboard', search: '' };

describe('preloadMatches: the guards decide before any read', () => {
  it('reads nothing for a person the guard refuses, and loads no chunk below it', async () => {
    const { routes, layout, page } = routesWithSpies();
    await preloadMatches(routes, at, { ready: true, user: user('user') });
    await preloadMatches(routes, at, { ready: true, user: null });
    expect(page.prefetch).not.toHaveBeenCalled();
    expect(page.preload).not.toHaveBeenCalled();
    expect(layout.preload).not.toHaveBeenCalled();
  });

  it('loads the chunks but reads nothing while the session is not known', async () => {
    const { routes, layout, page } = routesWithSpies();
    await preloadMatches(routes, at);
    expect(layout.preload).toHaveBeenCalledOnce();
    expect(page.preload).toHaveBeenCalledOnce();
    expect(page.prefetch).not.toHaveBeenCalled();
  });

  it('loads and reads for a person the guard admits', async () => {
    const { routes, page } = routesWithSpies();
    await preloadMatches(routes, at, { ready: true, user: user('admin') });
    expect(page.preload).toHaveBeenCalledOnce();
    expect(page.prefetch).toHaveBeenCalledOnce();
  });
});

const TheScreen = () => createElement('p', null, 'the screen');
const Nothing = () => null;

/** What a route's element renders: its LazyScreen called as React would call it. */
function rendered(element: unknown): ReactElement {
  const screen = element as ReactElement<object, (props: object) => ReactElement>;
  return screen.type(screen.props);
}

describe('lazyRoute', () => {
  it('renders a screen whose module has arrived directly, not through React.lazy', async () => {
    const route = lazyRoute(async () => ({ Page: TheScreen }), 'Page');
    // before its module arrives: React.lazy, which suspends (the spinner shows)
    expect(rendered(route.element).type).not.toBe(TheScreen);
    expect((rendered(route.element).type as { $$typeof?: symbol }).$$typeof).toBe(Symbol.for('react.lazy'));
    await (route.handle as { preload(): Promise<unknown> }).preload();
    // after: the screen itself, drawn in the same render (React.lazy would suspend once more, and React
    // holds a revealed screen back 300 ms after its spinner)
    expect(rendered(route.element).type).toBe(TheScreen);
  });

  it("hands a screen's prefetch the path's parameters", async () => {
    const prefetch = vi.fn();
    const routes: RouteObject[] = [
      lazyRoute(async () => ({ Page: Nothing, prefetch }), 'Page', { path: 'user/shops/:id' }),
    ];
    await preloadMatches(
      routes,
      { pathname: '/user/shops/abc', search: '?page=2' },
      { ready: true, user: null },
    );
    await vi.waitFor(() => expect(prefetch).toHaveBeenCalledOnce());
    const [search, params] = prefetch.mock.calls[0] as [URLSearchParams, Record<string, string>];
    expect(search.get('page')).toBe('2');
    expect(params).toMatchObject({ id: 'abc' });
  });
});
