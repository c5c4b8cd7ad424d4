import { renderTable } from './markdown-table';
import { formatNumber } from './statistics';
import type { BenchSummary } from './summary';

/** keel's Broadcast to many SSE streams: events a second to every stream; nothing when left out. */
export function renderFanOutTable(summary: BenchSummary): string {
  const { fanOut } = summary;
  if (fanOut === undefined) return '';
  return renderTable(
    [
      'SSE streams',
      'events a round',
      'events/s to every stream',
      'deliveries/s (all streams)',
      'publishes/s',
      'publish to last stream p50 ms',
      'p99 ms',
    ],
    [
      [
        fanOut.streams.toLocaleString('en'),
        fanOut.events.toLocaleString('en'),
        formatNumber(fanOut.eventsPerSecond),
        formatNumber(fanOut.deliveriesPerSecond),
        formatNumber(fanOut.publishesPerSecond),
        formatNumber(fanOut.fanOutP50Ms, 1),
        formatNumber(fanOut.fanOutP99Ms, 1),
      ],
    ],
  );
}
