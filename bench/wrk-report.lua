-- wrk's summary as one JSON line (bench/http-load.ts parses it): requests,
-- the run's duration and latency percentiles in microseconds, and the
-- failures (socket errors, non-2xx answers).
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'WRK_REPORT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"socket_errors":%d,"non2xx":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    errors.connect + errors.read + errors.write + errors.timeout, errors.status))
end
