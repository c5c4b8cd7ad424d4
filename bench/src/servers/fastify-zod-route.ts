import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { storedOrder } from './create-order';
import { createOrderSchema } from './create-order-schema';

/**
 * `POST /api/orders/zod` as fastify-type-provider-zod's users write it: its compilers set in a
 * plugin of their own (so the JSON-schema route keeps ajv), the schema on the route, the body typed from it.
 */
export async function zodOrderRoute(zodRoutes: FastifyInstance): Promise<void> {
  zodRoutes.setValidatorCompiler(validatorCompiler);
  zodRoutes.setSerializerCompiler(serializerCompiler);
  zodRoutes
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/orders/zod', { schema: { body: createOrderSchema } }, async (request, reply) =>
      reply.code(201).send(storedOrder(request.body)),
    );
}
