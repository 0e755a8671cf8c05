-- pktgen's side of scripts/bench-pktgen.sh: runs the Lua chunks the benchmark's driver
-- (scripts/lib/pktgen_bench.py trials) writes as CONTROL_DIR/cmd-1, cmd-2, ... and answers each with
-- CONTROL_DIR/ack-N ("ok", or "error: ..." when the chunk failed: a Lua error must never leave pktgen waiting).
-- A chunk that returns "quit", or no command for IDLE_LIMIT_S, ends the loop and pktgen with it.
-- CONTROL_DIR comes from the environment (BENCH_PKTGEN_CONTROL).
local dir = os.getenv("BENCH_PKTGEN_CONTROL")
local IDLE_LIMIT_S = 120

local function read_file(path)
    local f = io.open(path, "r")
    if f == nil then return nil end
    local text = f:read("a")
    f:close()
    return text
end

local function write_file(path, text)
    local tmp = path .. ".tmp"
    local f = io.open(tmp, "w")
    f:write(text)
    f:close()
    os.rename(tmp, path)
end

if dir == nil then
    print("pktgen-control.lua: BENCH_PKTGEN_CONTROL is not set")
    pktgen.quit()
    return
end
pktgen.screen("off")
write_file(dir .. "/ready", "ok")
local n = 1
local idle_ms = 0
while idle_ms < IDLE_LIMIT_S * 1000 do
    local chunk = read_file(dir .. "/cmd-" .. n)
    if chunk == nil then
        pktgen.delay(10)
        idle_ms = idle_ms + 10
    else
        idle_ms = 0
        local fn, err = load(chunk)
        local ok, result = false, err
        if fn ~= nil then
            ok, result = pcall(fn)
        end
        if ok then
            write_file(dir .. "/ack-" .. n, "ok")
        else
            write_file(dir .. "/ack-" .. n, "error: " .. tostring(result))
        end
        n = n + 1
        if ok and result == "quit" then break end
    end
end
pktgen.quit()
