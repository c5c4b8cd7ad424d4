import { messageOf } from './describe-value';
import { defineErrors } from './error-entry';

/**
 * The errors of `MetricsModule`: one entry per code, so each message is written once.
 *
 * @example
 * MetricsErrors.metricsPortUnavailable.code; // 'E_METRICS_PORT_UNAVAILABLE'
 */
export const MetricsErrors = defineErrors({
  metricsPortUnavailable: {
    code: 'E_METRICS_PORT_UNAVAILABLE',
    message: (port: number, host: string | undefined, cause: unknown) =>
      `MetricsModule could not listen on port ${port} of ${host ?? 'every interface'}: ${messageOf(cause)}.\n` +
      `Fix: give MetricsModule.forRoot({ port }) a port nothing else uses (not the application's own), ` +
      `or leave port out to serve the metrics on the application's port.`,
    extras: (_port: number, _host: string | undefined, cause: unknown) => ({ cause }),
  },
});
