-- wrk's script for the bench's GET rows (scripts/bench/run.mjs, wrkLoad), with one thread (-t1):
--
--   wrk -t1 -cN -dS --latency --timeout 10s -H 'name: value' … -s scripts/bench/wrk.lua URL -- PATHS START N
--
-- PATHS: a file of request paths, one a line; the requests go through it in order from line START + 1
-- (0-based START: where the row's list was left), round and round, as the bench's cycle() hands them to
-- autocannon. N: the connections (-c), for undoing wrk's latency correction (below). The -H headers
-- (cookie, accept-encoding, user-agent) go with every request. At the end it prints one JSON line: the
-- run's duration (µs), the answers by status, the requests sent (those in flight at the end too: the
-- paths used), wrk's socket errors and the latency histogram ("µs,count" pairs, flattened).
--
-- A thread's globals are what done() reads through thread:get (done runs in wrk's main Lua state, not
-- the thread's): `sent`, `statuses` and `connections`.

local ffi = require('ffi')

local paths = {}
local at = 0
-- The request around its path: wrk.format's "GET <path> HTTP/1.1\r\nHost: …" with the -H headers, split
-- at the path, so that a request is one concatenation, not a formatting of every header.
local before, after
-- wrk calls request() once before the run to check what it returns (script_verify_request): not sent.
local verified = false

sent = 0
statuses = {}
connections = 0

local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
end

function init(args)
  for path in io.lines(args[1]) do
    if path ~= '' then
      paths[#paths + 1] = path
    end
  end
  at = tonumber(args[2]) or 0
  connections = tonumber(args[3])
  before = 'GET '
  after = wrk.format('GET', '/'):sub(#'GET /' + 1)
end

function request()
  if not verified then
    verified = true
    return before .. paths[1] .. after
  end
  local path = paths[at % #paths + 1]
  at = at + 1
  sent = sent + 1
  return before .. path .. after
end

-- The answers by status, as autocannon counts them (non-2xx answers are the row's errors). Defined, it
-- has wrk keep each answer's headers and body for it: against a 7.7 KB body wrk's user CPU per answer
-- stayed within the noise of 4 s runs (8.0–8.4 µs with it, 7.8–8.0 without; its system time is most).
function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

-- The latency histogram as measured. wrk 4 "corrects" it for coordinated omission before done() is
-- called (stats_correct in its stats.c): an answer slower than twice the mean interval between a
-- connection's requests adds made-up ones at every interval below it. That models a client sending at a
-- fixed rate; the bench's connections send their next request when the answer comes, as autocannon's
-- do, and its p95/p99 are those of the answers. So the correction is undone here, from wrk's own
-- histogram (its `stats` struct, read through LuaJIT's FFI: the Lua side offers no bucket-by-bucket
-- access), and checked: the answers counted must be wrk's completed requests less those over the timeout.
local function measured(latency, summary, connections)
  -- wrk's struct: uint64_t count, limit, min, max; uint64_t data[] (one bucket a µs, up to the timeout).
  local stats = ffi.cast('uint64_t **', latency)[0]
  local min, max = tonumber(stats[2]), tonumber(stats[3])
  if min ~= latency.min or max ~= latency.max then
    return nil, "wrk's latency histogram is not laid out as this script expects"
  end
  -- As wrk computes it (integer divisions); no correction when a connection completed no request.
  local perConnection = math.floor(summary.requests / connections)
  local interval = perConnection > 0 and math.floor(summary.duration / perConnection) or nil
  -- wrk added, for each answer of n µs (n ≥ 2 × interval), one at n − k × interval for every k ≥ 1 that
  -- stays above the interval. So from the top down, a bucket above the interval holds its own answers
  -- plus those of every bucket above it at a multiple of the interval: `above` sums them per remainder.
  local buckets, above, total = {}, {}, 0
  for n = max, min, -1 do
    local count = tonumber(stats[4 + n])
    if count > 0 then
      if interval and n > interval then
        local remainder = n % interval
        count = count - (above[remainder] or 0)
        above[remainder] = (above[remainder] or 0) + count
      end
      if count > 0 then
        buckets[#buckets + 1] = n .. ',' .. count
        total = total + count
      end
    end
  end
  if total ~= summary.requests - summary.errors.timeout then
    return nil, 'undoing wrk’s latency correction left ' .. total .. ' answers of ' .. summary.requests
  end
  return buckets
end

function done(summary, latency, _requests)
  local thread = threads[1]
  local connections = tonumber(thread:get('connections'))
  local histogram, problem = measured(latency, summary, connections)
  local byStatus = {}
  for status, count in pairs(thread:get('statuses')) do
    byStatus[#byStatus + 1] = string.format('"%d":%d', status, count)
  end
  local errors = summary.errors
  io.write(
    '{"duration":', summary.duration,
    ',"completed":', summary.requests,
    ',"sent":', thread:get('sent'),
    ',"statuses":{', table.concat(byStatus, ','), '}',
    ',"errors":{"connect":', errors.connect, ',"read":', errors.read, ',"write":', errors.write,
    ',"timeout":', errors.timeout, '}',
    ',"latency":[', histogram and table.concat(histogram, ',') or '', ']',
    problem and (',"problem":"' .. problem .. '"') or '',
    '}\n'
  )
end
