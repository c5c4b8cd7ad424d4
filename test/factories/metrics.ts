import { eventually } from './eventually';

/** One sample of a scrape: a series' name, its labels and its value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL_PAIR = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a scrape in Prometheus's text format (comments skipped). */
export function parseSamples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = SAMPLE_LINE.exec(line);
    if (!match || line.startsWith('#')) return [];
    const [, name = '', labelText = '', value = ''] = match;
    const labels = Object.fromEntries(
      [...labelText.matchAll(LABEL_PAIR)].map(([, key = '', val = '']) => [key, val]),
    );
    return [{ name, labels, value: Number(value) }];
  });
}

/** GETs `url` and returns its samples, failing on any answer but a 200 in the text format. */
export async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${text}`);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseSamples(text);
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none has them. */
export function valueOf(
  samples: readonly Sample[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** The distinct series of a scrape (name and labels), as Prometheus would store them. */
export function seriesOf(samples: readonly Sample[]): Set<string> {
  return new Set(samples.map(({ name, labels }) => `${name}${JSON.stringify(labels)}`));
}

/**
 * Scrapes `url` until `isDone` holds for its samples, and returns them: a request's series are
 * recorded when its response closes on the server, which may come just after the client has read it.
 * Past `timeoutMs` it rejects, naming `what`.
 */
export function scrapeUntil(
  url: string,
  what: string,
  isDone: (samples: readonly Sample[]) => boolean,
  timeoutMs = 10_000,
): Promise<Sample[]> {
  return eventually(
    async () => {
      const samples = await scrape(url);
      return isDone(samples) && samples;
    },
    { within: timeoutMs, what: `${what} in a scrape of ${url}` },
  );
}
