import { z } from 'zod';

/**
 * `CreateOrder`'s rules as zod users state them: the body of `POST /api/orders/zod`, validated by
 * keel through the Standard Schema interface and by Fastify through fastify-type-provider-zod.
 */
export const createOrderSchema = z.object({
  item: z.string().min(1).max(80),
  quantity: z.number().int().min(1).max(1000),
  email: z.email(),
});
