-- wrk script: send the request 10 times back to back on each connection (HTTP/1.1
-- pipelining). wrk counts the requests in the buffer and waits for that many
-- responses before writing the batch again.
local depth = tonumber(os.getenv("PIPELINE_DEPTH") or "10")

init = function(args)
  local one = wrk.format(nil, nil, nil, nil)
  request_batch = string.rep(one, depth)
end

request = function()
  return request_batch
end
