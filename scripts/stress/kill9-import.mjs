#!/usr/bin/env node
// Kill -9 in the middle of a confirmed import (issue 17, docs/decisions/022): afterwards the whole run is
// there or none of it — its products, their audit entries and the run's own entry together.
//
//   node scripts/stress/kill9-import.mjs [--kills 2] [--rows 20000] [--embedded] [--postgres]
//
// Needs the built server (npm run build). For each database (both when neither flag is given: the
// embedded PostgreSQL the server starts on MALL_DATA_DIR, and a throwaway cluster): starts
// dist/server/main.js (demo mall on), registers an admin, and per kill: a new shop, a CSV of --rows
// products for it uploaded and previewed, the import confirmed (all or nothing), the server SIGKILLed
// while the run is being written, restarted; then the shop must have 0 or all the rows, the audit log
// exactly as many product entries of the run, and the run's entry only when the rows are there; and the
// run itself must say so: "done" when whole, "failed" as interrupted (its lease, MALL_IMPORT_LEASE_S,
// ran out) when absent — never left "running". Embedded, odd kills hit the server process alone (its
// PostgreSQL must stop by itself), even ones the whole process group, and the PostgreSQL processes from
// before each kill must be gone within 10 s (no orphan), the new ones all the new server's. Exits 1 on a
// partial run, a run left running, or an orphan or stray PostgreSQL process.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startThrowawayCluster } from '../pg-cluster.mjs';
import {
  Api,
  checkOwnPostgres,
  clusterOf,
  databasesOf,
  HarnessError,
  installCleanup,
  killPostgresProcesses,
  makeRandom,
  printFailure,
  registerAccount,
  requireBuiltServer,
  restartAfterKill,
  Server,
  seconds,
  serverEnv,
  serverWorkspace,
  sleep,
  snapshotPostgres,
  untilRun,
  uploadCsv,
} from './lib.mjs';

const INVITE_CODE = 'kill9-import-admin-invite-code';
const ADMIN = { email: 'kill9.import@example.com', password: 'kill9-password' };

const { values: options } = parseArgs({
  options: {
    kills: { type: 'string', default: '2' },
    rows: { type: 'string', default: '20000' },
    embedded: { type: 'boolean', default: false },
    postgres: { type: 'boolean', default: false },
  },
});
const kills = Number(options.kills);
const rows = Number(options.rows);
const databases = databasesOf(options);
installCleanup?.();
const random = makeRandom(Math.floor(Math.random() * 2 ** 31));

async function runDatabase(kind) {
  const workspace = serverWorkspace(`super-mall-kill9-import-${kind}-`, `kill9-import-${kind}-`);
  const env = await serverEnv({
    TMPDIR: workspace.serverTmp,
    MALL_DATA_DIR: path.join(workspace.workDir, 'data'),
    MALL_DEMO_DATA: 'on',
    MALL_ADMIN_INVITE_CODE: INVITE_CODE,
    // A short lease, so the killed run is found interrupted soon after the restart.
    MALL_IMPORT_LEASE_S: '2',
  });
  /** The embedded PostgreSQL's cluster (none on an external PostgreSQL), whose processes are watched. */
  const embeddedCluster = kind === 'embedded' ? clusterOf(env.MALL_DATA_DIR) : undefined;
  let cluster;
  let server;
  let api;
  let failures = 0;
  try {
    if (kind === 'postgres') {
      cluster = await startThrowawayCluster();
      env.DATABASE_URL = cluster.url;
    }
    server = new Server({ label: kind, mainJs: workspace.mainJs, env, logPath: workspace.logPath });
    await server.start(60_000);
    api = new Api(server.port);
    await registerAccount(api, { ...ADMIN, role: 'admin', inviteCode: INVITE_CODE });
    const category = (await api.get('/api/categories')).body.items[0];
    const floor = (await api.get('/api/floors')).body.items[0];
    for (let run = 1; run <= kills; run++) {
      const shopName = `Kill9 import shop ${run} ${Date.now()}`;
      const shop = await api.send('POST', '/api/shops', {
        name: shopName,
        categoryId: category.id,
        floorId: floor.id,
      });
      if (shop.status !== 201) throw new HarnessError(`creating the shop: HTTP ${shop.status}`);
      const lines = ['shop,code,name,price'];
      for (let i = 0; i < rows; i++) lines.push(`${shopName},K${i},Kill9 product ${i},${(i % 500) + 0.5}`);
      const started = await uploadCsv(api, 'products', 'kill9.csv', `${lines.join('\n')}\n`);
      await untilRun(api, started.id, ['previewed']);
      const confirmed = await api.send('POST', `/api/imports/${started.id}/confirm`, { validOnly: false });
      if (confirmed.status !== 202) throw new HarnessError(`confirm: HTTP ${confirmed.status}`);
      // Killed while the run writes: once its check inside the transaction has read every row (the
      // run reports it), a little later.
      const deadline = performance.now() + 60_000;
      for (;;) {
        const { body } = await api.get(`/api/imports/${started.id}`);
        if (body.status !== 'running' || body.rowsChecked >= rows || performance.now() > deadline) break;
        await sleep(20);
      }
      const killAt = random.int(0, 400);
      await sleep(killAt);
      const alone = embeddedCluster !== undefined && run % 2 === 1;
      const before = snapshotPostgres(embeddedCluster);
      await server.kill({ alone });
      const { gone } = await restartAfterKill(server, {
        cluster: embeddedCluster,
        before,
        timeoutMs: 30_000,
      });
      const processProblems = gone
        ? [
            ...gone.left.map((proc) => `orphan PostgreSQL process ${proc.pid}: ${proc.args.slice(0, 100)}`),
            ...checkOwnPostgres(embeddedCluster, server),
          ]
        : [];
      api.reconnect(server.port);
      const me = await api.get('/api/auth/me');
      if (me.body?.user?.role !== 'admin') await api.send('POST', '/api/auth/login', ADMIN);
      const products = (await api.get(`/api/products?shopId=${shop.body.id}&pageSize=1`)).body.total;
      const audit = await api.get(`/api/audit?entityId=${started.id}&pageSize=1`);
      const runEntry = audit.body.total;
      const productEntries = (await api.get(`/api/manage/shops/${shop.body.id}/activity?pageSize=1`)).body
        .total;
      // The run as the Import page shows it, once its lease has run out: done, or interrupted.
      const after = await untilRun(api, started.id, ['done', 'failed'], 30_000).catch(() => null);
      // The shop's own create entry is there either way; the run's product entries are all or none.
      const whole =
        products === rows && runEntry === 1 && productEntries === rows + 1 && after?.status === 'done';
      const none =
        products === 0 &&
        runEntry === 0 &&
        productEntries === 1 &&
        after?.status === 'failed' &&
        after.result?.interrupted === true;
      console.log(
        `[${kind}] kill ${run}/${kills} ${killAt} ms after its check` +
          (gone
            ? ` (${alone ? 'server alone' : 'whole group'}; its PostgreSQL gone in ${seconds(gone.ms)}` +
              `${processProblems.length ? `; ${processProblems.join('; ')}` : ''})`
            : '') +
          `: ${products} of ${rows} products, ` +
          `${productEntries - 1} product entries, run entry ${runEntry ? 'there' : 'absent'}, run ${after ? `${after.status}${after.result?.interrupted ? ' (interrupted)' : ''}` : 'still running'} — ${whole ? 'whole run' : none ? 'none of it' : 'PARTIAL OR UNREPORTED'}`,
      );
      if (!whole && !none) failures++;
      if (processProblems.length > 0) failures++;
    }
    await server.stop();
  } finally {
    api?.close();
    if (server?.isRunning()) await server.kill();
    killPostgresProcesses(embeddedCluster);
    await cluster?.stop();
    workspace.remove();
  }
  return failures;
}

requireBuiltServer();
const started = performance.now();
let failures = 0;
for (const kind of databases) {
  try {
    failures += await runDatabase(kind);
  } catch (error) {
    printFailure(`kill9-import [${kind}] FAILED: `, error, { stack: false });
    failures++;
  }
}
console.log(
  `kill9-import: ${failures === 0 ? 'every run whole or absent' : `${failures} partial or failed`} (${seconds(performance.now() - started)})`,
);
process.exit(failures === 0 ? 0 : 1);
