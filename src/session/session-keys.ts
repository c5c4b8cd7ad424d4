import { InjectionToken } from '../container/token';

/**
 * The keys `SessionModule`'s secret gave, newest first: what signed cookies are signed with where
 * the application gives no `cookieSecrets` of its own.
 */
export const SESSION_KEYS = new InjectionToken<readonly string[]>('the session keys');
