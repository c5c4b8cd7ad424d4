import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { z } from 'zod';

// The validation classes' `Order` (test/factories/validation-classes.ts) as zod 4 and valibot
// schemas, rule for rule, so the same bodies can be sent to all three.

const zodAddress = z.object({
  city: z.string().min(1),
  zip: z
    .string()
    .regex(/^\d{4,5}$/)
    .optional(),
});
const zodLine = z.object({ sku: z.string().min(1).max(20), count: z.number().int().min(1).max(99) });

/** `Order` in zod 4. */
export const zodOrder = z
  .object({
    item: z.string().min(1).max(80),
    quantity: z.number().int().min(1).max(1000),
    email: z.email(),
    price: z.number().multipleOf(0.01).optional(),
    gift: z.boolean().optional(),
    delivery: z.enum(['post', 'pickup']).optional(),
    size: z.enum(['small', 'large']).optional(),
    coupon: z.string().min(2).max(10).optional(),
    deliverBy: z.iso.datetime({ offset: true }).optional(),
    address: zodAddress.nullish(),
    lines: z.array(zodLine).min(1).max(3).optional(),
    tags: z.array(z.string()).optional(),
    // As @ValidateIf: checked only for a gift, below.
    message: z.unknown().optional(),
    lucky: z
      .number()
      .refine((n) => n % 2 === 0, 'must be even')
      .optional(),
    confirm: z.boolean({ error: 'say whether to confirm' }),
  })
  .refine((order) => order.gift !== true || isMessage(order.message), {
    path: ['message'],
    message: 'a gift needs a message of 1 to 200 characters',
  });

function isMessage(message: unknown): boolean {
  return typeof message === 'string' && message.length >= 1 && message.length <= 200;
}

// Two decimals at most, as @IsNumber({ maxDecimalPlaces: 2 }); valibot's multipleOf(0.01) refuses 9.99.
function hasTwoDecimals(n: number): boolean {
  return Math.abs(n * 100 - Math.round(n * 100)) < 1e-9;
}

const valibotAddress = v.object({
  city: v.pipe(v.string(), v.minLength(1)),
  zip: v.optional(v.pipe(v.string(), v.regex(/^\d{4,5}$/))),
});
const valibotLine = v.object({
  sku: v.pipe(v.string(), v.minLength(1), v.maxLength(20)),
  count: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(99)),
});

/** `Order` in valibot, wrapped by its own JSON Schema export. */
export const valibotOrder = toStandardJsonSchema(
  v.pipe(
    v.object({
      item: v.pipe(v.string(), v.minLength(1), v.maxLength(80)),
      quantity: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)),
      email: v.pipe(v.string(), v.email()),
      price: v.optional(v.pipe(v.number(), v.check(hasTwoDecimals, 'at most two decimals'))),
      gift: v.optional(v.boolean()),
      delivery: v.optional(v.picklist(['post', 'pickup'])),
      size: v.optional(v.picklist(['small', 'large'])),
      coupon: v.optional(v.pipe(v.string(), v.minLength(2), v.maxLength(10))),
      deliverBy: v.optional(v.pipe(v.string(), v.isoTimestamp())),
      address: v.nullish(valibotAddress),
      lines: v.optional(v.pipe(v.array(valibotLine), v.minLength(1), v.maxLength(3))),
      tags: v.optional(v.array(v.string())),
      message: v.optional(v.unknown()),
      lucky: v.optional(
        v.pipe(
          v.number(),
          v.check((n) => n % 2 === 0, 'must be even'),
        ),
      ),
      confirm: v.boolean('say whether to confirm'),
    }),
    v.forward(
      v.check(
        (order) => order.gift !== true || isMessage(order.message),
        'a gift needs a message of 1 to 200 characters',
      ),
      ['message'],
    ),
  ),
);
