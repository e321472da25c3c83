/**
 * Loaded into a server under measurement (`BENCH_NODE_ARGS="--import ./bench/event-loop-probe.mjs"`):
 * reports, when the server is stopped, the longest time its event loop was held, twice: in wall
 * time (what a client waits; on a loaded machine it counts time the process waited for a core)
 * and in the CPU time the main thread spent over that same gap (the part the server's own work
 * held the loop). Checked every 5 ms; the main thread's CPU time comes from /proc (10 ms ticks).
 */
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const statPath = `/proc/self/task/${process.pid}/stat`;
const mainThreadCpuMs = () => {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
};
const histogram = monitorEventLoopDelay({ resolution: 10 });
let last = performance.now();
let lastCpu = mainThreadCpuMs();
let longestWall = 0;
let longestCpu = 0;
let started = false;
setInterval(() => {
  const now = performance.now();
  const cpu = mainThreadCpuMs();
  if (started) {
    longestWall = Math.max(longestWall, now - last - 5);
    longestCpu = Math.max(longestCpu, cpu - lastCpu);
  }
  last = now;
  lastCpu = cpu;
}, 5).unref();
// From the first request to a path that starts with PROBE_FROM (default `/v2/`) on: the server's
// own start (compiling, migrating, modules loaded on first use, the readiness polls) is not measured.
const from = process.env.PROBE_FROM ?? '/v2/';
subscribe('http.server.request.start', ({ request }) => {
  if (started || !request.url.startsWith(from)) return;
  started = true;
  histogram.enable();
});
// Printed as the process exits (the server exits on SIGTERM once it has closed): a SIGTERM
// listener here would keep a server that has not installed its own yet from stopping.
process.once('exit', () => {
  process.stderr.write(
    `[event-loop-probe] longest hold: ${longestWall.toFixed(0)} ms wall, ${longestCpu.toFixed(0)} ms of main-thread CPU; monitorEventLoopDelay max ${(histogram.max / 1e6).toFixed(0)} ms, p99 ${(histogram.percentile(99) / 1e6).toFixed(0)} ms\n`,
  );
});
