#!/usr/bin/env node
// Kill -9 and insights' counts (issue 34, docs/decisions/035): a server killed with SIGKILL mid-traffic
// loses at most the hits it counted since its last flush (MALL_INSIGHTS_FLUSH_MS), and never counts one
// twice.
//
//   node scripts/stress/kill9-insights.mjs [--kills 3] [--flush-ms 1000] [--connections 20] [--seed N]
//
// Needs the built server (npm run build). Starts `dist/server/main.js` (a copy under .tmp/) on the
// embedded database in a fresh temp folder, with MALL_INSIGHTS_FLUSH_MS=--flush-ms; registers an admin
// and takes a demo shop. Then --kills times: --connections senders report views of the shop
// (POST /api/insights/hits, one view a request, a browser's user agent), each acknowledged (204) view
// noted with its time; 1.5 s plus up to the longer of 2.5 s and two flush intervals in (so a kill may
// come after a flush with the server's 5 s default too), the whole process group is SIGKILLed; the
// server is started again and the shop's views are read back (GET /api/insights/shops/:id). Fails when
// more were stored than acknowledged (a view counted twice, or one that was refused), or when the views
// lost exceed those acknowledged in the window before the kill: the flush interval plus one second (a
// flush under way at the kill, whose transaction did not commit). Prints a line per kill and
// `kill9-insights: N kills, A acknowledged, S stored, L lost (at most W in the windows)`.
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  Api,
  HarnessError,
  installCleanup,
  makeRandom,
  printFailure,
  registerAccount,
  requireBuiltServer,
  Server,
  serverEnv,
  serverWorkspace,
  sleep,
} from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    kills: { type: 'string', default: '3' },
    'flush-ms': { type: 'string', default: '1000' },
    connections: { type: 'string', default: '20' },
    seed: { type: 'string' },
  },
});
const KILLS = Number(args.kills);
const FLUSH_MS = Number(args['flush-ms']);
const CONNECTIONS = Number(args.connections);
const random = makeRandom(args.seed === undefined ? Date.now() : Number(args.seed));
const AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const INVITE_CODE = 'kill9-insights-invite-code';

requireBuiltServer();
installCleanup();

/** One view reported with a browser's user agent; true when acknowledged (204). */
async function view(port, shopId) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/insights/hits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': AGENT },
      body: JSON.stringify({ hits: [{ kind: 'shop_view', id: shopId }] }),
      signal: AbortSignal.timeout(5_000),
    });
    await response.arrayBuffer();
    return response.status === 204;
  } catch {
    return false;
  }
}

async function storedViews(api, shopId) {
  const { status, body } = await api.get(`/api/insights/shops/${shopId}`);
  if (status !== 200)
    throw new HarnessError(`reading the shop's numbers: HTTP ${status} ${JSON.stringify(body)}`);
  return Number(body.totals.shop_view ?? 0);
}

const workspace = serverWorkspace('super-mall-kill9-insights-', 'kill9-insights-');
const env = await serverEnv({
  TMPDIR: workspace.serverTmp,
  MALL_DATA_DIR: path.join(workspace.workDir, 'data'),
  MALL_DEMO_DATA: 'on',
  MALL_ADMIN_INVITE_CODE: INVITE_CODE,
  MALL_INSIGHTS_FLUSH_MS: String(FLUSH_MS),
});
const server = new Server({ label: 'embedded', mainJs: workspace.mainJs, env, logPath: workspace.logPath });
let failed = false;
try {
  await server.start(120_000);
  const api = new Api(server.port);
  await registerAccount(api, {
    email: `kill9-insights-${Date.now()}@example.com`,
    password: 'kill9-insights-password',
    role: 'admin',
    inviteCode: INVITE_CODE,
  });
  const shops = await api.get('/api/shops?pageSize=1');
  const shopId = shops.body.items[0].id;

  let acknowledged = 0;
  let stored = 0;
  let windows = 0;
  for (let kill = 1; kill <= KILLS; kill++) {
    const acks = [];
    let sending = true;
    const senders = Array.from({ length: CONNECTIONS }, async () => {
      while (sending) if (await view(server.port, shopId)) acks.push(performance.now());
    });
    // Past a flush or two, or before the first: what was flushed stays, only the window after it is lost.
    await sleep(1_500 + random.next() * Math.max(2_500, 2 * FLUSH_MS));
    const killedAt = performance.now();
    await server.kill();
    sending = false;
    await Promise.all(senders);
    // Acknowledged before the kill (an answer cannot arrive after it).
    const before = acks.filter((at) => at <= killedAt).length;
    const inWindow = acks.filter((at) => at > killedAt - FLUSH_MS - 1_000).length;
    acknowledged += before;
    windows += inWindow;
    await server.start(60_000);
    api.reconnect(server.port);
    const now = await storedViews(api, shopId);
    const added = now - stored;
    stored = now;
    const lost = before - added;
    console.log(
      `kill ${kill}: ${before} views acknowledged, ${added} stored, ${lost} lost (${inWindow} acknowledged in the last ${FLUSH_MS + 1_000} ms)`,
    );
    if (added > before) {
      console.error(`  more stored than acknowledged: a view counted twice`);
      failed = true;
    }
    if (lost > inWindow) {
      console.error(`  lost more than the flush window holds`);
      failed = true;
    }
  }
  // A graceful stop loses nothing: what is counted when SIGTERM arrives is flushed at close.
  let sending = true;
  let graceful = 0;
  const senders = Array.from({ length: CONNECTIONS }, async () => {
    while (sending) if (await view(server.port, shopId)) graceful += 1;
  });
  await sleep(1_000);
  sending = false;
  await Promise.all(senders);
  await server.stop();
  await server.start(60_000);
  api.reconnect(server.port);
  const afterStop = (await storedViews(api, shopId)) - stored;
  console.log(`graceful stop: ${graceful} views acknowledged, ${afterStop} stored`);
  if (afterStop !== graceful) failed = true;
  console.log(
    `kill9-insights: ${KILLS} kills, ${acknowledged} acknowledged, ${stored} stored, ${acknowledged - stored} lost (at most ${windows} in the windows); graceful stop lost ${graceful - afterStop}`,
  );
  api.close();
  await server.stop();
} catch (error) {
  printFailure('', error, { stack: false });
  failed = true;
  await server.kill().catch(() => undefined);
} finally {
  workspace.remove();
}
process.exit(failed ? 1 : 0);
