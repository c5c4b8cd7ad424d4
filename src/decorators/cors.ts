import type { CorsOptions } from '../http/cors-policy';
import { MetadataKey } from '../metadata/keys';
import { SetMetadata, type ClassOrMethodDecorator } from './hooks';

/**
 * Gives a controller's routes (or one handler's) a CORS policy of their own, in place of the
 * application's option `cors`: `true` allows any origin, an object says which and how, `false`
 * answers their cross-origin requests with no CORS header at all.
 *
 * @example
 * @Cors({ origins: ['https://partner.example'], credentials: true })
 * @Controller('partner') class PartnerController {}
 */
export function Cors(policy: boolean | CorsOptions = true): ClassOrMethodDecorator {
  return SetMetadata(MetadataKey.cors, policy);
}
