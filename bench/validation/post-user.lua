-- wrk: every request is POST /users with the validation bench's JSON body (bench/validation.ts
-- passes the body as the script's first argument, so the Lua and TypeScript sides share it).
function init(args)
  wrk.method = "POST"
  wrk.body = args[1]
  wrk.headers["Content-Type"] = "application/json"
end
