import { defineConfig } from '@playwright/test';

// The end-to-end suite. Run it with `npm run test:e2e`: scripts/test-e2e.mjs builds nothing itself,
// starts the built server on a free port with demo data and sets E2E_BASE_URL for these tests.
// The browser is Debian's Chromium (/usr/bin/chromium, see scripts/ensure-chromium.mjs): Playwright
// must never download one.

const baseURL = process.env.E2E_BASE_URL;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  // Two cores: one worker per core, tests within a file in order. Every test makes its own accounts.
  workers: 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  // A hang detector, not a speed check: in CI this suite shares the 2 cores with the API tests on the
  // other target (.ci/run), and a test of about 15 s on a quiet machine has taken over 30 s there
  // (images.spec.ts's upload of an 11 MB file, 33 s). Tests that are longer still set their own.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    headless: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
    video: 'off',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
  },
  projects: [
    {
      name: 'desktop',
      grepInvert: /@phone/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // Only the tests tagged @phone: layouts at a phone's width.
      name: 'phone',
      grep: /@phone/,
      use: { viewport: { width: 375, height: 740 }, isMobile: false, hasTouch: false },
    },
  ],
});
