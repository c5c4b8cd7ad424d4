import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { InjectMetric, PrometheusModule, makeHistogramProvider } from '@willsoto/nestjs-prometheus';
import type { Request, Response } from 'express';
import { LoggerModule } from 'nestjs-pino';
import type { Histogram } from 'prom-client';
import { finalize } from 'rxjs';

const REQUEST_DURATION = 'http_request_duration_seconds';

// @willsoto/nestjs-prometheus serves prom-client's registry; the HTTP histogram is the interceptor
// its users write, since the module observes no requests by itself.
@Injectable()
class RequestDuration implements NestInterceptor {
  constructor(@InjectMetric(REQUEST_DURATION) private readonly duration: Histogram<string>) {}

  intercept(context: ExecutionContext, next: CallHandler) {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const stop = this.duration.startTimer({ method: request.method, route: String(request.route?.path) });
    return next
      .handle()
      .pipe(finalize(() => stop({ status: String(http.getResponse<Response>().statusCode) })));
  }
}

/** What a NestJS application imports for production: nestjs-pino's request log, GET /metrics. */
export const productionImports = [LoggerModule.forRoot(), PrometheusModule.register()];

/** The request histogram and the interceptor that observes it on every route. */
export const productionProviders = [
  makeHistogramProvider({
    name: REQUEST_DURATION,
    help: 'HTTP request duration in seconds',
    labelNames: ['method', 'route', 'status'],
  }),
  { provide: APP_INTERCEPTOR, useClass: RequestDuration },
];

export { Logger as PinoLogger } from 'nestjs-pino';
