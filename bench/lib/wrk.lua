-- Drives one case for bench/run.mjs and prints the summary as one JSON line.
-- BENCH_METHOD and BENCH_BODY shape the request; with BENCH_EXPECT_STATUS set (smoke mode) every response's
-- status and body are checked and the ones that differ are counted as mismatches (a slower path for wrk).
local method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
local expect_status = tonumber(os.getenv("BENCH_EXPECT_STATUS") or "")
local expect_body = os.getenv("BENCH_EXPECT_BODY")

wrk.method = method
if body and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  mismatches = 0
  first_mismatch = ""
end

if expect_status then
  function response(status, headers, received)
    if status ~= expect_status or received ~= expect_body then
      if mismatches == 0 then
        -- kept JSON-safe: control characters become spaces, quotes and backslashes are escaped
        local sample = string.sub(received or "", 1, 200):gsub("%c", " "):gsub("\\", "\\\\"):gsub('"', '\\"')
        first_mismatch = status .. " " .. sample
      end
      mismatches = mismatches + 1
    end
  end
end

function done(summary, latency, requests)
  local mismatched = 0
  local sample = ""
  for _, thread in ipairs(threads) do
    mismatched = mismatched + (thread:get("mismatches") or 0)
    local first = thread:get("first_mismatch") or ""
    if sample == "" then sample = first end
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,' ..
    '"statusErrors":%d,"mismatches":%d,"firstMismatch":"%s","p50Us":%d,"p99Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.timeout, e.status, mismatched,
    sample, latency:percentile(50), latency:percentile(99), latency.max))
end
