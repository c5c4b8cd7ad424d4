import type * as OpenTelemetry from '@opentelemetry/api';
import type { Tracer, TracerProvider } from '@opentelemetry/api';

/** The name keel's spans are made under (their instrumentation scope). */
const TRACER_NAME = 'keel';
// Where @opentelemetry/api 1.x keeps what an SDK registers (its global registry, one per major
// version): without a tracer provider there, keel has nothing to trace with, and need not load the
// API at all, 9 ms of a cold start.
const OPENTELEMETRY_GLOBALS = Symbol.for('opentelemetry.js.api.1');

// The global provider is a proxy that forwards to the provider an SDK registers; with none it
// hands out no delegate tracer.
interface DelegatingProvider extends TracerProvider {
  getDelegateTracer(name: string): Tracer | undefined;
}

/**
 * keel's tracer, where an OpenTelemetry SDK has registered a tracer provider (a `NodeSDK` that has
 * started, or `provider.register()`), otherwise undefined: asked once, when the application boots,
 * so that without an SDK no request pays for tracing. An SDK registered after that is not seen.
 *
 * @example
 * const tracer = registeredTracer(); // undefined until an SDK is registered
 */
export function registeredTracer(): Tracer | undefined {
  const globals = (globalThis as { [OPENTELEMETRY_GLOBALS]?: { trace?: unknown } })[OPENTELEMETRY_GLOBALS];
  if (globals?.trace === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only where an SDK registered a provider
  const { trace } = require('@opentelemetry/api') as typeof OpenTelemetry;
  const provider = trace.getTracerProvider();
  if (!isDelegating(provider)) return provider.getTracer(TRACER_NAME);
  return provider.getDelegateTracer(TRACER_NAME);
}

function isDelegating(provider: TracerProvider): provider is DelegatingProvider {
  return typeof (provider as Partial<DelegatingProvider>).getDelegateTracer === 'function';
}
