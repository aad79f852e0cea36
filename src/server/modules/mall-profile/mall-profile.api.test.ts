// The mall's profile (/api/mall/profile, docs/decisions/034): read by anyone, set by admins with the
// form's messages, recorded in the log, raising the catalogue version so cached reads follow; its logo
// uploaded and removed at /api/mall/profile/logo, kept by a save that leaves it out, released when
// replaced or removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MALL_LOGO_MESSAGE, type MallProfile, type MallProfileInput } from '../../../shared/mall-profile';
import { type Directory, expectFieldError, openDirectory } from '../../test/catalog-fixtures';
import { createTestApp, type SignedIn, type TestApp } from '../../test/harness';
import { multipart, testJpeg } from '../../test/images';
import { imageExists } from '../images/store';

let t: TestApp;
let d: Directory;
let manager: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  manager = await d.manager((await d.shop()).id);
});
afterAll(async () => {
  await t?.close();
});

const PROFILE = {
  name: 'Orion Mall',
  streetAddress: '26/1 Dr Rajkumar Road',
  locality: 'Bengaluru',
  region: 'Karnataka',
  postalCode: '560055',
  country: 'IN',
  phone: '+91 80 2268 2222',
  latitude: 13.011,
  longitude: 77.555,
  currency: 'INR',
  publicUrl: 'https://orion.example.com',
} satisfies MallProfileInput;

const put = (payload: unknown, as: SignedIn | null = d.admin) =>
  d.call(as, 'PUT', '/api/mall/profile', payload);
const read = async (): Promise<MallProfile> => {
  const response = await t.app.inject({ url: '/api/mall/profile' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as MallProfile;
};
const storedRow = async () =>
  (await t.database.pool.query('select * from mall_profile')).rows[0] as Record<string, unknown>;

/** The log's entries about the mall's profile, oldest first. */
async function profileEntries() {
  const { rows } = await t.database.pool.query<{
    entity_id: string | null;
    action: string;
    actor_email: string;
    changes: Record<string, { before: unknown; after: unknown }>;
  }>(
    `select entity_id, action, actor_email, changes from audit_log
      where entity_type = 'mall' and entity_name = 'Mall profile' order by id`,
  );
  return rows;
}

async function uploadLogo(as: SignedIn | null = d.admin) {
  const { payload, headers } = multipart(await testJpeg());
  return t.app.inject({
    method: 'PUT',
    url: '/api/mall/profile/logo',
    payload,
    headers: { ...headers, ...(as?.headers ?? {}) },
  });
}

describe('reading', () => {
  it('answers anyone, signed in or not: "Super Mall" and nothing else until an admin says more', async () => {
    expect(await read()).toEqual({
      name: 'Super Mall',
      streetAddress: '',
      locality: '',
      region: '',
      postalCode: '',
      country: '',
      phone: '',
      latitude: null,
      longitude: null,
      currency: 'INR',
      logo: null,
      publicUrl: '',
      updatedAt: null,
    });
    for (const as of [d.user, manager, d.admin]) {
      const response = await d.call(as, 'GET', '/api/mall/profile');
      expect(response.statusCode).toBe(200);
      expect(response.json().name).toBe('Super Mall');
    }
  });
});

describe('setting', () => {
  it('an admin sets every field; anyone reads them at once (the catalogue version rose, so the cache follows)', async () => {
    const version = async () =>
      BigInt((await t.database.pool.query('select version from catalog_version')).rows[0].version);
    const first = await t.app.inject({ url: '/api/mall/profile' });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    expect(
      (await t.app.inject({ url: '/api/mall/profile', headers: { 'if-none-match': etag } })).statusCode,
    ).toBe(304);
    const before = await version();
    const at = t.now().getTime();
    const saved = await put(PROFILE);
    expect(saved.statusCode, saved.body).toBe(200);
    const answer = saved.json() as MallProfile;
    expect(answer).toEqual({ ...PROFILE, logo: null, updatedAt: expect.any(String) });
    expect(Date.parse(answer.updatedAt ?? '')).toBeGreaterThanOrEqual(at - 1000);
    expect(await version()).toBeGreaterThan(before);
    // The cached copy is not answered any more: a new answer, a new ETag.
    const again = await t.app.inject({ url: '/api/mall/profile', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(answer);
    expect(again.headers.etag).not.toBe(etag);
    // numeric(9, 6): six decimals, as a map position needs (about 0.1 m).
    expect(await storedRow()).toMatchObject({
      name: 'Orion Mall',
      latitude: '13.011000',
      longitude: '77.555000',
    });
  });

  it('tidies what it takes: codes in capitals, spaces trimmed, the public URL without a trailing slash', async () => {
    const saved = await put({
      ...PROFILE,
      name: '  Orion   Mall ',
      country: ' gb ',
      currency: 'eur',
      publicUrl: ' https://mall.example.com/directory/ ',
      latitude: null,
      longitude: null,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      country: 'GB',
      currency: 'EUR',
      publicUrl: 'https://mall.example.com/directory',
      latitude: null,
      longitude: null,
    });
    expect(saved.json().name.trim()).toBe(saved.json().name);
    // Empty where a mall has none.
    const blank = await put({
      ...PROFILE,
      streetAddress: '',
      locality: '',
      region: '',
      postalCode: '',
      country: '',
      phone: '',
      publicUrl: '',
    });
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json()).toMatchObject({ streetAddress: '', country: '', publicUrl: '' });
  });

  it('is the mall office’s: a shopper and a shop manager get 403, a visitor 401, and nothing changes', async () => {
    await put(PROFILE);
    const row = await storedRow();
    const entries = (await profileEntries()).length;
    const changed = { ...PROFILE, name: 'Taken Over Mall' };
    for (const [as, status] of [
      [d.user, 403],
      [manager, 403],
      [null, 401],
    ] as const) {
      expect((await put(changed, as)).statusCode).toBe(status);
      expect((await uploadLogo(as)).statusCode).toBe(status);
      expect((await d.call(as, 'DELETE', '/api/mall/profile/logo')).statusCode).toBe(status);
    }
    expect(await storedRow()).toEqual(row);
    expect((await profileEntries()).length).toBe(entries);
  });

  it('is recorded in the log: who, and each field that changed, before and after', async () => {
    await put(PROFILE);
    const before = (await profileEntries()).length;
    await put({ ...PROFILE, phone: '+91 80 4000 0000', region: 'KA' });
    // Saving it unchanged records nothing.
    await put({ ...PROFILE, phone: '+91 80 4000 0000', region: 'KA' });
    const entries = await profileEntries();
    expect(entries.length).toBe(before + 1);
    expect(entries.at(-1)).toEqual({
      entity_id: null,
      action: 'update',
      actor_email: d.admin.user.email,
      changes: {
        phone: { before: PROFILE.phone, after: '+91 80 4000 0000' },
        region: { before: PROFILE.region, after: 'KA' },
      },
    });
    const listed = (await d.call(d.admin, 'GET', '/api/audit?entityType=mall&pageSize=1')).json();
    expect(listed.items[0]).toMatchObject({
      entityType: 'mall',
      entityName: 'Mall profile',
      action: 'update',
    });
  });
});

describe('refused with the form’s message under the field, changing nothing', () => {
  const cases: Array<[label: string, change: Record<string, unknown>, field: string, message: string]> = [
    ['an empty name', { name: '' }, 'name', 'Mall name is required'],
    ['a name of spaces', { name: '   ' }, 'name', 'Mall name is required'],
    ['a name that shows nothing', { name: '\u3164\u200C' }, 'name', 'Mall name is required'],
    ['a name of 81 characters', { name: 'n'.repeat(81) }, 'name', 'Mall name must be at most 80 characters'],
    ['a name on two lines', { name: 'Orion\nMall' }, 'name', 'Mall name must be one line'],
    [
      'a street address of 121 characters',
      { streetAddress: 's'.repeat(121) },
      'streetAddress',
      'Street address must be at most 120 characters',
    ],
    [
      'a street address on two lines',
      { streetAddress: '1 Road\r\n=1+1' },
      'streetAddress',
      'Street address must be one line',
    ],
    [
      'a town of 121 characters',
      { locality: 'l'.repeat(121) },
      'locality',
      'Town or city must be at most 120 characters',
    ],
    ['a region on two lines', { region: 'a\u2028b' }, 'region', 'Region must be one line'],
    [
      'a postal code of 21 characters',
      { postalCode: '5'.repeat(21) },
      'postalCode',
      'Postal code must be at most 20 characters',
    ],
    [
      'a three-letter country',
      { country: 'IND' },
      'country',
      'Country must be a two-letter code, such as IN or GB',
    ],
    [
      'a country with a digit',
      { country: 'I1' },
      'country',
      'Country must be a two-letter code, such as IN or GB',
    ],
    ['a phone of 41 characters', { phone: '9'.repeat(41) }, 'phone', 'Phone must be at most 40 characters'],
    ['a latitude of 91', { latitude: 91 }, 'latitude', 'Latitude must be a number from -90 to 90'],
    ['a latitude of -90.5', { latitude: -90.5 }, 'latitude', 'Latitude must be a number from -90 to 90'],
    ['a latitude as text', { latitude: '13' }, 'latitude', 'Latitude must be a number from -90 to 90'],
    ['a longitude of 181', { longitude: 181 }, 'longitude', 'Longitude must be a number from -180 to 180'],
    [
      'a longitude as text',
      { longitude: 'east' },
      'longitude',
      'Longitude must be a number from -180 to 180',
    ],
    [
      'a latitude without a longitude',
      { longitude: null },
      'longitude',
      'Give both latitude and longitude, or neither',
    ],
    [
      'a longitude without a latitude',
      { latitude: null },
      'longitude',
      'Give both latitude and longitude, or neither',
    ],
    ['no currency', { currency: '' }, 'currency', 'Currency must be a three-letter code, such as INR or EUR'],
    [
      'a currency word',
      { currency: 'RUPEE' },
      'currency',
      'Currency must be a three-letter code, such as INR or EUR',
    ],
    ['a logo that is no image key', { logo: 'logo.png' }, 'logo', MALL_LOGO_MESSAGE],
    ['a logo no stored image has', { logo: `${'A'.repeat(43)}-160x160` }, 'logo', MALL_LOGO_MESSAGE],
    ...[
      'ftp://mall.example.com',
      'mall.example.com',
      'https://',
      'https://mall.example.com/?q=1',
      'https://a:b@mall.example.com',
      'javascript:alert(1)',
    ].map((publicUrl): [string, Record<string, unknown>, string, string] => [
      `the public URL ${publicUrl}`,
      { publicUrl },
      'publicUrl',
      'Public URL must start with https:// or http:// and name a host, such as https://mall.example.com',
    ]),
    [
      'a public URL of 201 characters',
      { publicUrl: `https://${'m'.repeat(189)}.com` },
      'publicUrl',
      'Public URL must be at most 200 characters',
    ],
  ];

  it.each(cases)('%s', async (_label, change, field, message) => {
    await put(PROFILE);
    const row = await storedRow();
    const entries = (await profileEntries()).length;
    expectFieldError(await put({ ...PROFILE, ...change }), field, message);
    expect(await storedRow()).toEqual(row);
    expect((await profileEntries()).length).toBe(entries);
  });

  it('a field left out, an unknown field or a slug of our choosing', async () => {
    const { phone: _phone, ...withoutPhone } = PROFILE;
    expectFieldError(await put(withoutPhone), 'phone', 'This field is required');
    const unknown = await put({ ...PROFILE, updatedAt: '2020-01-01T00:00:00Z' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('Unknown field: updatedAt');
    expect((await put([PROFILE])).statusCode).toBe(400);
  });
});

describe('the logo', () => {
  it('is uploaded on its own route, kept by a save that leaves it out, released when replaced or removed', async () => {
    await put(PROFILE);
    const first = await uploadLogo();
    expect(first.statusCode, first.body).toBe(200);
    const logo = first.json().image as string;
    expect((await read()).logo).toBe(logo);
    expect(await imageExists(t.database.db, logo)).toBe(true);
    expect((await profileEntries()).at(-1)?.changes).toEqual({
      logo: { before: null, after: expect.stringMatching(/^320 × 240 image /) },
    });

    // A save without it, or with it as it is, keeps it.
    expect((await put({ ...PROFILE, name: 'Orion Mall East' })).json().logo).toBe(logo);
    expect((await put({ ...PROFILE, logo })).json().logo).toBe(logo);
    expect(await imageExists(t.database.db, logo)).toBe(true);
    const files = await t.app.imageStore.count();

    // Another upload replaces it: the first image and its files go.
    const second = (await uploadLogo()).json().image as string;
    expect((await read()).logo).toBe(second);
    expect(await imageExists(t.database.db, logo)).toBe(false);
    expect(await t.app.imageStore.count()).toBe(files);

    // Removed by the profile's save (null): the image and its files go, and the log says so.
    const removed = await put({ ...PROFILE, logo: null });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().logo).toBeNull();
    expect(await imageExists(t.database.db, second)).toBe(false);
    expect(await t.app.imageStore.count()).toBeLessThan(files);
    expect((await profileEntries()).at(-1)?.changes.logo).toEqual({
      before: expect.stringMatching(/^320 × 240 image /),
      after: null,
    });

    // And by its own removal route.
    const third = (await uploadLogo()).json().image as string;
    const deleted = await d.call(d.admin, 'DELETE', '/api/mall/profile/logo');
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ image: null });
    expect((await read()).logo).toBeNull();
    expect(await imageExists(t.database.db, third)).toBe(false);
    // Removing no logo changes nothing.
    expect((await d.call(d.admin, 'DELETE', '/api/mall/profile/logo')).statusCode).toBe(200);
  });

  it('may be an image a shop shows too: the shop keeps it when the mall lets it go', async () => {
    const shop = await d.shop();
    const { payload, headers } = multipart(await testJpeg());
    const uploaded = await t.app.inject({
      method: 'PUT',
      url: `/api/shops/${shop.id}/logo`,
      payload,
      headers: { ...headers, ...d.admin.headers },
    });
    const key = uploaded.json().image as string;
    expect((await put({ ...PROFILE, logo: key })).json().logo).toBe(key);
    expect((await put({ ...PROFILE, logo: null })).json().logo).toBeNull();
    expect(await imageExists(t.database.db, key)).toBe(true);
    const image = await t.app.inject({ url: `/api/images/${key}/160.webp` });
    expect(image.statusCode).toBe(200);
  });
});
