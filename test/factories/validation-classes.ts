import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  Equals,
  IsArray,
  IsBoolean,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEmpty,
  IsObject,
  IsPositive,
  IsUrl,
  IsUUID,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PartialType } from 'keel';

// Classes using each rule keel compiles, for the tests that hold its compiled bindings to
// class-transformer and class-validator.

export enum Size {
  Small = 'small',
  Large = 'large',
}

export class Line {
  @IsString() @Length(1, 20) sku!: string;
  @IsInt() @Min(1) @Max(99) count!: number;
}

export class Address {
  @IsNotEmpty() @IsString() city!: string;
  @IsOptional() @Matches(/^\d{4,5}$/) zip?: string;
}

// An application's own rule, checked by its validator function: compiled as a call to it.
const IsEven = () =>
  ValidateBy({
    name: 'isEven',
    validator: {
      validate: (value) => typeof value === 'number' && value % 2 === 0,
      defaultMessage: () => '$property must be even, not $value',
    },
  });

export class Order {
  @Length(1, 80) @IsString() item!: string;
  @Max(1000) @Min(1) @IsInt() quantity!: number;
  @IsEmail() email!: string;
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) price?: number;
  @IsOptional() @IsBoolean() gift?: boolean;
  @IsOptional() @IsIn(['post', 'pickup']) delivery?: string;
  @IsOptional() @IsEnum(Size) size?: Size;
  @IsOptional() @MaxLength(10) @MinLength(2) coupon?: string;
  @IsOptional() @IsDateString() deliverBy?: string;
  @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
  @IsOptional()
  @ValidateNested({ each: true })
  @ArrayMaxSize(3)
  @ArrayMinSize(1)
  @IsArray()
  @Type(() => Line)
  lines?: Line[];
  @IsOptional() @IsString({ each: true }) tags?: string[];
  @ValidateIf((order: Order) => order.gift === true) @Length(1, 200) @IsString() message?: string;
  @IsOptional() @IsEven() lucky?: number;
  @IsDefined({ message: 'say whether to $property' }) @IsBoolean() confirm!: boolean;
}

/** The rules {@link Order} does not use, each on an optional field. */
export class Extras {
  @IsOptional() @IsUUID('4') id?: string;
  @IsOptional() @IsUrl() site?: string;
  @IsOptional() @IsPositive() weight?: number;
  @IsOptional() @Equals('yes') agreed?: string;
  @IsOptional() @ArrayNotEmpty() codes?: string[];
  @IsOptional() @IsObject() meta?: object;
  @IsEmpty() internal?: unknown;
  @IsOptional() @IsNumber({}, { each: true }) @Max(10, { each: true }) scores?: number[];
}

export class OrderChanges extends PartialType(Order) {}

// Where each object came from, and its own keys in order: what instanceof and Object.keys see.
export function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value !== 'object' || value === null) return value;
  const fields = Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shape(field)]));
  return { $class: (value as object).constructor?.name, $keys: Object.keys(value), ...fields };
}
