import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Contains,
  Equals,
  IsArray,
  IsBoolean,
  IsDate,
  IsDateString,
  IsDivisibleBy,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNotIn,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  NotContains,
  ValidateNested,
} from 'class-validator';
import { ClassSchemas } from '../../src/openapi/class-schemas';
import type { JsonSchema } from '../../src/openapi/json-schema';

enum Colour {
  Red = 'red',
  Green = 'green',
}
enum Priority {
  Low,
  High,
}

class Rules {
  @IsString() string!: string;
  @IsInt() int!: number;
  @IsNumber() number!: number;
  @IsBoolean() boolean!: boolean;
  @IsEmail() email!: string;
  @IsUrl() url!: string;
  @IsUUID() uuid!: string;
  @IsDateString() dateString!: string;
  @IsDate() date!: Date;
  @Min(1) @Max(10) range!: number;
  @IsPositive() positive!: number;
  @IsNegative() negative!: number;
  @IsDivisibleBy(5) divisible!: number;
  @Length(2, 8) length!: string;
  @MinLength(3) minLength!: string;
  @MaxLength(4) maxLength!: string;
  @IsNotEmpty() notEmpty!: string;
  @Matches(/^[a-z]+$/) matches!: string;
  @Contains('x') contains!: string;
  @NotContains('\u0000') notContains!: string;
  @Equals('yes') equals!: string;
  @IsIn(['a', 'b']) isIn!: string;
  @IsNotIn(['c']) isNotIn!: string;
  @IsEnum(Colour) colour!: Colour;
  @IsEnum(Priority) priority!: Priority;
}

// What each rule becomes: one row per class-validator rule.
const MAPPING: [keyof Rules, JsonSchema][] = [
  ['string', { type: 'string' }],
  ['int', { type: 'integer' }],
  ['number', { type: 'number' }],
  ['boolean', { type: 'boolean' }],
  ['email', { type: 'string', format: 'email' }],
  ['url', { type: 'string', format: 'uri' }],
  ['uuid', { type: 'string', format: 'uuid' }],
  ['dateString', { type: 'string', format: 'date-time' }],
  ['date', { type: 'string', format: 'date-time' }],
  ['range', { type: 'number', minimum: 1, maximum: 10 }],
  ['positive', { type: 'number', exclusiveMinimum: 0 }],
  ['negative', { type: 'number', exclusiveMaximum: 0 }],
  ['divisible', { type: 'number', multipleOf: 5 }],
  ['length', { type: 'string', minLength: 2, maxLength: 8 }],
  ['minLength', { type: 'string', minLength: 3 }],
  ['maxLength', { type: 'string', maxLength: 4 }],
  ['notEmpty', { type: 'string', minLength: 1 }],
  ['matches', { type: 'string', pattern: '^[a-z]+$' }],
  ['contains', { type: 'string', pattern: 'x' }],
  ['notContains', { type: 'string', not: { pattern: '\\u0000' } }],
  ['equals', { type: 'string', const: 'yes' }],
  ['isIn', { type: 'string', enum: ['a', 'b'] }],
  ['isNotIn', { type: 'string', not: { enum: ['c'] } }],
  ['colour', { type: 'string', enum: ['red', 'green'] }],
  ['priority', { type: 'number', enum: [0, 1] }],
];

class Address {
  @IsString() street!: string;
  @IsOptional() @IsString() city?: string;
}

class Line {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

class Customer {
  @ValidateNested() @Type(() => Address) address!: Address;
  @IsOptional() @ValidateNested() @Type(() => Address) billing?: Address;
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Line)
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  lines!: Line[];
  @IsString({ each: true }) @ArrayNotEmpty() @ArrayUnique() tags!: string[];
  @IsOptional() @IsInt() age?: number;
  @IsOptional() @ValidateNested() @Type(() => Customer) referrer?: Customer;
}

// Each call declares a class of the same name, as two modules of an application may.
function inputClass(rule: PropertyDecorator): new () => object {
  class Input {
    value!: unknown;
  }
  rule(Input.prototype, 'value');
  return Input;
}

function schemasOf(type: new () => object): { ref: JsonSchema; all: Record<string, JsonSchema> } {
  const schemas = new ClassSchemas();
  const ref = schemas.ref(type);
  return { ref, all: schemas.all() };
}

describe('class-validator rules become JSON Schema', () => {
  const { ref, all } = schemasOf(Rules);
  const rules = all.Rules as { properties: Record<string, JsonSchema>; required: string[] };

  test('a class is a $ref to its schema among the components, named after it', () => {
    expect(ref).toEqual({ $ref: '#/components/schemas/Rules' });
    expect(rules.required).toEqual(MAPPING.map(([property]) => property));
  });

  test.each(MAPPING)('%s', (property, schema) => {
    expect(rules.properties[property]).toEqual(schema);
  });
});

describe('nested classes, arrays and optional fields', () => {
  const { all } = schemasOf(Customer);
  const customer = all.Customer as { properties: Record<string, JsonSchema>; required: string[] };

  test('a nested class is a $ref, and its schema is added once', () => {
    expect(customer.properties.address).toEqual({ $ref: '#/components/schemas/Address' });
    expect(customer.properties.billing).toEqual({ $ref: '#/components/schemas/Address' });
    expect(all.Address).toEqual({
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
      required: ['street'],
    });
  });

  test('an array of nested classes has $ref items and its size limits', () => {
    expect(customer.properties.lines).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Line' },
      minItems: 1,
      maxItems: 50,
    });
    expect(all.Line).toEqual({
      type: 'object',
      properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
      required: ['sku', 'quantity'],
    });
  });

  test('rules with { each: true } constrain the items', () => {
    expect(customer.properties.tags).toEqual({
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      uniqueItems: true,
    });
  });

  test('@IsOptional fields are not required; a class nesting itself refers to itself', () => {
    expect(customer.required).toEqual(['address', 'lines', 'tags']);
    expect(customer.properties.age).toEqual({ type: 'integer' });
    expect(customer.properties.referrer).toEqual({ $ref: '#/components/schemas/Customer' });
  });

  test('two classes with one name get two schemas', () => {
    const First = inputClass(IsString());
    const Second = inputClass(IsInt());
    expect(First.name).toBe(Second.name);
    const schemas = new ClassSchemas();
    expect([schemas.ref(First), schemas.ref(Second), schemas.ref(First)]).toEqual([
      { $ref: '#/components/schemas/Input' },
      { $ref: '#/components/schemas/Input2' },
      { $ref: '#/components/schemas/Input' },
    ]);
  });
});
