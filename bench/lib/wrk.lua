-- Drives one case for bench/run.mjs and prints the summary as one JSON line.
-- BENCH_METHOD and BENCH_BODY shape the request; with BENCH_EXPECT_STATUS set (smoke mode) every response's
-- status and body are checked and the ones that differ are counted as mismatches (a slower path for wrk).
-- The db suite's TechEmpower test types also set BENCH_EXPECT_TYPE (the Content-Type's start) and
-- BENCH_EXPECT_KIND: "exact" (the body), "world" (one {"id":N,"randomNumber":N}) or "worlds" (an array of
-- BENCH_EXPECT_COUNT of them), ids and numbers within 1..10000: the rules of bench/lib/db-cases.mjs.
local method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
local expect_status = tonumber(os.getenv("BENCH_EXPECT_STATUS") or "")
local expect_body = os.getenv("BENCH_EXPECT_BODY")
local expect_kind = os.getenv("BENCH_EXPECT_KIND") or "exact"
local expect_count = tonumber(os.getenv("BENCH_EXPECT_COUNT") or "1")
local expect_type = os.getenv("BENCH_EXPECT_TYPE")
local array_shape = "[" .. string.rep(",", expect_count - 1) .. "]"

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

local function in_range(text)
  local n = tonumber(text)
  return n ~= nil and n >= 1 and n <= 10000 and n == math.floor(n)
end

-- The body is right for the kind expected.
local function body_ok(received)
  if expect_kind == "exact" then return received == expect_body end
  local bad = false
  local rest, count = string.gsub(received or "", '{"id":(%d+),"randomNumber":(%d+)}', function(id, number)
    if not (in_range(id) and in_range(number)) then bad = true end
    return ""
  end)
  if bad then return false end
  if expect_kind == "world" then return count == 1 and rest == "" end
  return count == expect_count and rest == array_shape
end

local function type_ok(headers)
  if not expect_type then return true end
  for name, value in pairs(headers) do
    if string.lower(name) == "content-type" then
      local given = string.lower(string.gsub(value, "%s", ""))
      return string.sub(given, 1, #expect_type) == expect_type
    end
  end
  return false
end

if expect_status then
  function response(status, headers, received)
    if status ~= expect_status or not type_ok(headers) or not body_ok(received) then
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
