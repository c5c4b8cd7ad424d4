import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { eventually } from './eventually';

/** A real OpenTelemetry SDK registered globally, as an application registers one, keeping its spans in memory. */
export interface TracingSdk {
  /** The spans ended so far. */
  finished(): ReadableSpan[];
  /** Resolves with the ended spans once `predicate` holds for them; rejects after `timeoutMs`. */
  spansWhen(
    what: string,
    predicate: (spans: ReadableSpan[]) => boolean,
    timeoutMs?: number,
  ): Promise<ReadableSpan[]>;
  /** Forgets the spans ended so far. */
  reset(): void;
  /** Unregisters the provider, the context manager and the propagator. */
  unregister(): Promise<void>;
}

/**
 * Registers a tracer provider (in-memory exporter, simple processor), an AsyncLocalStorage context
 * manager and the W3C trace-context propagator, as an application does before `createApplication`.
 */
export function registerTracingSdk(): TracingSdk {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    finished: () => exporter.getFinishedSpans(),
    // A span ends when its answer's connection says 'close', a moment after the client has read it.
    spansWhen: (what, predicate, timeoutMs = 5000) =>
      eventually(
        () => {
          const spans = exporter.getFinishedSpans();
          if (predicate(spans)) return spans;
          throw new Error(`ended spans: ${JSON.stringify(spans.map((span) => span.name))}`);
        },
        { within: timeoutMs, every: 10, what },
      ),
    reset: () => exporter.reset(),
    async unregister() {
      trace.disable();
      context.disable();
      propagation.disable();
      await provider.shutdown();
    },
  };
}

/** A `traceparent` header value for a sampled remote parent. */
export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
