import type { Order } from './order.entity';

/** The columns of the CSV export, in order: what an order shows, never its internal note. */
export const CSV_HEADER = 'id,customer,product,quantity,createdAt\r\n';

/**
 * One order as a CSV record (RFC 4180: CRLF, fields with a comma, quote or line break quoted). A
 * field that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return first)
 * is prefixed with `'`, as OWASP advises against CSV injection: a customer named `=HYPERLINK(...)`
 * stays text.
 *
 * @example
 * csvRecord(order); // '7,Ada,Lamp,2,2026-11-27T21:00:00.000Z\r\n'
 */
export function csvRecord(order: Order): string {
  const fields = [order.id, order.customer, order.product, order.quantity, order.createdAt.toISOString()];
  return `${fields.map((field) => csvField(String(field))).join(',')}\r\n`;
}

function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
