import { RedisScript } from './redis-script';

// Each stored event is one member of its channel's sorted set, scored by its id:
// {"at":<the server's time in ms>,"id":"<id>","channel":...,"event":...,"data":...}. `at` comes first
// so that a script reads it with a pattern rather than decoding the whole event.
const READ_AT = `local function at(member) return tonumber(string.match(member, '^{"at":(%d+)')) end
local function micros()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000000 + tonumber(time[2])
end
local function now() return math.floor(micros() / 1000) end
`;

/**
 * Stores one event and publishes it, atomically: scripts run one at a time, so ids are given, and
 * published on the one pub/sub channel, in increasing order, and every subscriber hears them in that
 * order. KEYS: the id counter, the channel's sorted set. ARGV: the pub/sub channel, the event as JSON
 * (`{"channel":...,"event":...,"data":...}`), the replay window in ms. Returns the id, a decimal string.
 *
 * Lua numbers are doubles: ids stay below 2^53 (the clock in microseconds reaches it in the year
 * 2255) and are written with `%d`, so they stay exact.
 */
export const PUBLISH_EVENT = new RedisScript(`${READ_AT}
local us = micros()
local ms = math.floor(us / 1000)
-- The server's clock (in microseconds) or the counter, whichever is higher: ids keep increasing
-- even when Redis restarts without its data, so a client's Last-Event-ID never hides new events.
local id = math.max((tonumber(redis.call('GET', KEYS[1])) or 0) + 1, us)
local text = string.format('%d', id)
redis.call('SET', KEYS[1], text)
local member = '{"at":' .. string.format('%d', ms) .. ',"id":"' .. text .. '",' .. string.sub(ARGV[2], 2)
redis.call('ZADD', KEYS[2], text, member)
-- Events past the window go as later ones come, oldest first, one at a time: a set seldom holds
-- more than one, and reading it costs one event, never the whole window.
local since = ms - tonumber(ARGV[3])
for _ = 1, 100 do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if oldest == nil or at(oldest) >= since then break end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, 0)
end
-- A channel that falls quiet is gone with its window.
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', ARGV[1], member)
return text
`);

/**
 * The stored events of one channel after an id and within the replay window, by the server's
 * clock, in id order. KEYS: the channel's sorted set. ARGV: the id after which, the window in ms.
 */
export const REPLAY_EVENTS = new RedisScript(`${READ_AT}
local since = now() - tonumber(ARGV[2])
local kept = {}
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')) do
  if at(member) >= since then kept[#kept + 1] = member end
end
return kept
`);
