/**
 * The one Redis script a request costs (run by EVALSHA; ioredis falls back to EVAL, which loads
 * it, after a Redis restart emptied the script cache). It checks every limit that applies and
 * counts the request in all of them only when all allow it, atomically, so concurrent requests on
 * any number of gateway instances cannot overshoot. Time is Redis's own clock (`TIME`), so the
 * instances' clocks need not agree. Refused requests are not counted: a client hammering past its
 * limit is not locked out beyond the window.
 *
 * KEYS: one sorted set per limit (the general one, then the heavy one when it applies).
 * ARGV: windowMs, a member unique to this request, then each key's limit in KEYS order.
 * Returns: allowed (1|0), then per key: limit, remaining, resetMs.
 */
export const SLIDING_WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local member = ARGV[2]
local counts = {}
local limits = {}
local allowed = 1
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  counts[i] = redis.call('ZCARD', KEYS[i])
  limits[i] = tonumber(ARGV[2 + i])
  if counts[i] >= limits[i] then allowed = 0 end
end
if allowed == 1 then
  for i = 1, #KEYS do
    redis.call('ZADD', KEYS[i], now, member)
    redis.call('PEXPIRE', KEYS[i], window)
    counts[i] = counts[i] + 1
  end
end
local out = { allowed }
for i = 1, #KEYS do
  local reset = window
  local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
  if oldest[2] then reset = tonumber(oldest[2]) + window - now end
  out[#out + 1] = limits[i]
  out[#out + 1] = math.max(0, limits[i] - counts[i])
  out[#out + 1] = reset
end
return out
`
