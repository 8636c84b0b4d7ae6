-- wrk script for bench/static-files.ts's range workload: every request asks for one 64 KiB
-- range at a random 64 KiB-aligned offset of the file (`-- <blocks>`: the file's size in
-- 64 KiB blocks), so the server seeks all over the file instead of answering one range.
local blocks = 16384

function init(args)
  if args[1] ~= nil then blocks = tonumber(args[1]) end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

function request()
  local first = math.random(0, blocks - 1) * 65536
  return wrk.format("GET", nil, { Range = "bytes=" .. first .. "-" .. (first + 65535) })
end
