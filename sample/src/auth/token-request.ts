import { IsOptional, IsString, Length, MaxLength } from 'class-validator';

/** What `POST /api/tokens` takes: the operator's credentials and what to call the token. */
export class TokenRequest {
  @IsString() @Length(1, 254) email!: string;

  @IsString() @Length(1, 1024) password!: string;

  /** Shown in the token's row, so that an operator can tell tokens apart; default `api`. */
  @IsOptional() @IsString() @MaxLength(80) name?: string;
}
