/**
 * The one Redis script a turn of the event loop costs per subject (run by EVALSHA; ioredis falls
 * back to EVAL, which loads it, after a Redis restart emptied the script cache). It decides the
 * requests of one subject that the gateway read in one turn, in the order they were read, each
 * exactly as if it ran alone: it checks every limit that applies to the request and counts it in
 * all of them only when all allow it, atomically, so concurrent requests on any number of gateway
 * instances cannot overshoot. Time is Redis's own clock (`TIME`), one reading for the batch, so the
 * instances' clocks need not agree. Refused requests are not counted: a client hammering past its
 * limit is not locked out beyond the window. One subject per call keeps every key of a call in one
 * hash slot (`{subject}`).
 *
 * KEYS: the subject's general sorted set, then its heavy one when any request of the batch is heavy.
 * ARGV: windowMs, the general limit, the heavy limit, the number of requests n, a prefix unique to
 *   the batch (the request's member is the prefix and its place in the batch), and one character
 *   per request, '1' if it is heavy, else '0'. Two arguments for the batch rather than two per
 *   request: the client encodes, and Redis parses, a few bytes instead of n members.
 * Returns, per request in order: allowed (1|0), then per limit that applies to it (general, then
 *   heavy): limit, remaining, resetMs.
 *
 * The counted requests are added once the batch is decided, one ZADD per key (in chunks, to stay
 * within Lua's stack): the decisions read the running counts, not the set.
 */
export const SLIDING_WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limits = { tonumber(ARGV[2]), tonumber(ARGV[3]) }
local n = tonumber(ARGV[4])
local prefix = ARGV[5]
local heavy = ARGV[6]
local counts = {}
local oldest = {}
local added = {}
for k = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', now - window)
  counts[k] = redis.call('ZCARD', KEYS[k])
  local first = redis.call('ZRANGE', KEYS[k], 0, 0, 'WITHSCORES')
  if first[2] then oldest[k] = tonumber(first[2]) end
  added[k] = {}
end
local out = {}
for i = 1, n do
  local applies = 1
  if string.byte(heavy, i) == 49 then applies = 2 end
  local allowed = 1
  for k = 1, applies do
    if counts[k] >= limits[k] then allowed = 0 end
  end
  if allowed == 1 then
    for k = 1, applies do
      local a = added[k]
      a[#a + 1] = now
      a[#a + 1] = prefix .. i
      counts[k] = counts[k] + 1
      if oldest[k] == nil then oldest[k] = now end
    end
  end
  out[#out + 1] = allowed
  for k = 1, applies do
    local reset = window
    if oldest[k] then reset = oldest[k] + window - now end
    out[#out + 1] = limits[k]
    out[#out + 1] = math.max(0, limits[k] - counts[k])
    out[#out + 1] = reset
  end
end
for k = 1, #KEYS do
  local a = added[k]
  if #a > 0 then
    for from = 1, #a, 400 do
      redis.call('ZADD', KEYS[k], unpack(a, from, math.min(from + 399, #a)))
    end
    redis.call('PEXPIRE', KEYS[k], window)
  end
end
return out
`
