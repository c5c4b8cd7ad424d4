import { hashPassword, Injectable, verifyPassword, type AuthUser } from 'keel';
import { SampleConfig } from '../config/sample-config';

declare module 'keel' {
  /** Who the sample's requests are made by: its operator, whose id is their email. */
  interface AuthUser {
    id: string;
    /** What the pages call them. */
    name: string;
  }
}

/**
 * The sample's one account, the operator's, from `ADMIN_EMAIL` and `ADMIN_PASSWORD`: it logs in to
 * the HTML pages and obtains the JSON API's tokens. The password is kept only as its scrypt hash.
 */
@Injectable()
export class OperatorAccount {
  readonly #operator: AuthUser | undefined;
  readonly #passwordHash: Promise<string> | undefined;

  constructor(config: SampleConfig) {
    const email = config.ADMIN_EMAIL?.trim().toLowerCase();
    this.#operator = email && config.ADMIN_PASSWORD ? { id: email, name: email } : undefined;
    // Hashed once, in the background; the first login waits for it.
    this.#passwordHash = this.#operator && hashPassword(config.ADMIN_PASSWORD as string);
  }

  /** Whether anyone can log in at all. */
  get isOpen(): boolean {
    return this.#operator !== undefined;
  }

  /**
   * The operator, when `email` and `password` are theirs. A wrong email costs the same key
   * derivation as a wrong password, so the time taken tells neither apart.
   */
  async logIn(email: string, password: string): Promise<AuthUser | undefined> {
    const isOperator = this.#operator !== undefined && email.trim().toLowerCase() === this.#operator.id;
    const hash = isOperator ? await this.#passwordHash : undefined;
    return (await verifyPassword(password, hash)) && isOperator ? this.#operator : undefined;
  }

  /** The user a session or an API token names, while the account is still configured. */
  find(id: string | undefined): AuthUser | undefined {
    return id !== undefined && id === this.#operator?.id ? this.#operator : undefined;
  }
}
