import { FrameworkError, messageOf } from '../framework-error';

/** The errors of `MetricsModule`: one builder per code, so each message is written once. */
export const MetricsErrors = {
  metricsPortUnavailable(port: number, host: string | undefined, cause: unknown) {
    return new FrameworkError(
      'E_METRICS_PORT_UNAVAILABLE',
      `MetricsModule could not listen on port ${port} of ${host ?? 'every interface'}: ${messageOf(cause)}.\n` +
        `Fix: give MetricsModule.forRoot({ port }) a port nothing else uses (not the application's own), ` +
        `or leave port out to serve the metrics on the application's port.`,
      { cause },
    );
  },
};
