import { Global, Module } from 'keel';
import { SampleConfig } from '../config/sample-config';
import { RedisConnection, redisConnectionFor } from './redis-connection';

/**
 * The sample's one connection to `REDIS_URL` (none without it), seen by every module: readiness
 * checks it, and `RealtimeModule`'s factory hands it to the live list's channel.
 */
@Global()
@Module({
  providers: [{ provide: RedisConnection, useFactory: redisConnectionFor, inject: [SampleConfig] }],
  exports: [RedisConnection],
})
export class RedisModule {}
