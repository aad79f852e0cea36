#!/usr/bin/env node
// Makes sure Debian's Chromium is installed at /usr/bin/chromium (the browser the e2e tests use;
// Playwright never downloads one here). As root it installs the `chromium` package with apt-get;
// otherwise it explains what to run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** @returns {string} the path of the Chromium executable */
export function ensureChromium() {
  if (fs.existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `Chromium is not installed (${CHROMIUM_PATH} is missing). Install it with: sudo apt-get install chromium`,
    );
  }
  console.error(`${CHROMIUM_PATH} is missing; installing Debian package "chromium" (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['-qq', 'update'],
    ['-qq', '-y', 'install', 'chromium'],
  ]) {
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.error) throw new Error(`apt-get could not run: ${result.error.message}`);
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit code ${result.status})`);
  }
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`apt-get installed "chromium" but ${CHROMIUM_PATH} is still missing`);
  }
  return CHROMIUM_PATH;
}

const runDirectly = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (runDirectly) {
  try {
    console.log(ensureChromium());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
