import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadRequest, LoadResult } from './load-request';

/** Whether wrk (Debian package `wrk`) is installed. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

// wrk reports through a Lua `done` hook: one JSON line after its own text, figures in microseconds.
const REPORT_SCRIPT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nWRK_JSON {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,' ..
    '"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
`;

function luaString(text: string): string {
  return JSON.stringify(text); // a JSON string literal is a valid Lua string literal for ASCII text
}

function writeScript(request: LoadRequest): string {
  const lines = [REPORT_SCRIPT, `wrk.method = ${luaString(request.method)}`];
  if (request.body !== undefined)
    lines.push(`wrk.body = ${luaString(request.body)}`, `wrk.headers["Content-Type"] = "application/json"`);
  for (const [name, value] of Object.entries(request.headers ?? {}))
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'keel-bench-wrk-')), 'load.lua');
  writeFileSync(file, lines.join('\n'));
  return file;
}

/**
 * The shell command that runs wrk (one thread, so that it needs one core) and then prints, through
 * the shell's `times`, the CPU its children used: wrk's own CPU time.
 */
export function wrkCommand(request: LoadRequest): string[] {
  const script = writeScript(request);
  const wrk = [
    'wrk',
    '-t1',
    `-c${request.connections}`,
    `-d${request.durationSeconds}s`,
    '-s',
    script,
    request.url,
  ].map((part) => `'${part.replace(/'/g, `'\\''`)}'`);
  return ['bash', '-c', `${wrk.join(' ')} && times`];
}

const seconds = (text: string): number => {
  const match = /(\d+)m([\d.]+)s/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
};

/** Reads wrk's report line and the shell's `times` into the runner's figures. */
export function parseWrkOutput(output: string, request: LoadRequest): LoadResult {
  const json = /WRK_JSON (\{.*\})/.exec(output)?.[1];
  if (json === undefined)
    throw new Error(`wrk printed no report for ${request.method} ${request.url}:\n${output}`);
  const report = JSON.parse(json) as Record<string, number>;
  const durationSeconds = (report.durationUs ?? 0) / 1e6;
  const requests = report.requests ?? 0;
  const badStatus = report.status ?? 0;
  // `times` prints the shell's own times, then its children's: the last line is wrk's.
  const childTimes = output.trimEnd().split('\n').at(-1) ?? '';
  const [user = '', system = ''] = childTimes.trim().split(/\s+/);
  return {
    requestsPerSecond: requests / durationSeconds,
    latencyP50Ms: (report.p50Us ?? 0) / 1000,
    latencyP99Ms: (report.p99Us ?? 0) / 1000,
    errors: (report.connect ?? 0) + (report.read ?? 0) + (report.write ?? 0),
    timeouts: report.timeout ?? 0,
    statusCodes: { [String(request.expectedStatus)]: requests - badStatus, other: badStatus },
    durationSeconds,
    generatorCpuPercent: ((seconds(user) + seconds(system)) / durationSeconds) * 100,
  };
}
