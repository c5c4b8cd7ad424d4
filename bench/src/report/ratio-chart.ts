import { ROUTES } from '../measure/routes';
import { chartGenerator } from './labels';
import { figureRatio, type BenchSummary } from './summary';

const WIDTH = 720;
const HEIGHT = 360;
const PLOT = { left: 56, right: 16, top: 48, bottom: 64 };
const SERIES = [
  { server: 'keel', label: 'keel / Express', colour: '#2563eb' },
  { server: 'nest', label: 'NestJS / Express', colour: '#dc2626' },
  { server: 'fastify', label: 'Fastify / Express', colour: '#16a34a' },
  { server: 'node', label: 'node:http / Express', colour: '#6b7280' },
];

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A grouped bar chart of throughput ratios against raw Express, one group per route, as SVG. */
export function renderRatioChart(summary: BenchSummary): string {
  const generator = chartGenerator(summary.generators);
  const ratios = ROUTES.map((route) =>
    SERIES.map((series) =>
      figureRatio(summary.figures, 'requestsPerSecond', {
        route: route.name,
        generator,
        server: series.server,
        baseline: 'express',
      }),
    ),
  );
  const finite = ratios.flat().filter(Number.isFinite);
  const top = Math.max(1.5, Math.ceil(Math.max(...finite, 1)));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const y = (value: number): number => PLOT.top + plotHeight * (1 - value / top);
  const groupWidth = plotWidth / ROUTES.length;
  const barWidth = (groupWidth * 0.6) / SERIES.length;

  const parts: string[] = [];
  for (let tick = 0; tick <= top + 1e-9; tick += top > 6 ? 1 : 0.5) {
    parts.push(
      `<line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e5e7eb"/>`,
      `<text x="${PLOT.left - 8}" y="${y(tick) + 4}" text-anchor="end">${tick.toFixed(1)}</text>`,
    );
  }
  ROUTES.forEach((route, group) => {
    const groupLeft = PLOT.left + group * groupWidth + groupWidth * 0.2;
    SERIES.forEach((series, index) => {
      const value = ratios[group]?.[index] ?? Number.NaN;
      if (!Number.isFinite(value)) return;
      const x = groupLeft + index * barWidth;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(value).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(y(0) - y(value)).toFixed(1)}" fill="${series.colour}"/>`,
        `<text x="${(x + barWidth / 2).toFixed(1)}" y="${(y(value) - 4).toFixed(1)}" text-anchor="middle">${value.toFixed(2)}</text>`,
      );
    });
    const centre = PLOT.left + group * groupWidth + groupWidth / 2;
    parts.push(
      `<text x="${centre.toFixed(1)}" y="${HEIGHT - PLOT.bottom + 20}" text-anchor="middle">${escapeXml(route.name)}</text>`,
    );
  });
  parts.push(
    `<line x1="${PLOT.left}" x2="${WIDTH - PLOT.right}" y1="${y(1)}" y2="${y(1)}" stroke="#111827" stroke-dasharray="6 4"/>`,
    `<text x="${WIDTH - PLOT.right}" y="${y(1) - 6}" text-anchor="end">raw Express = 1</text>`,
  );
  SERIES.forEach((series, index) => {
    const x = PLOT.left + index * 160;
    parts.push(
      `<rect x="${x}" y="${HEIGHT - 24}" width="12" height="12" fill="${series.colour}"/>`,
      `<text x="${x + 18}" y="${HEIGHT - 14}">${escapeXml(series.label)}</text>`,
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${PLOT.left}" y="24" font-size="15" font-weight="bold">Throughput relative to raw Express (median requests per second, ${generator})</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
