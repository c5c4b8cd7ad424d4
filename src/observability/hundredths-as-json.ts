/**
 * A number of milliseconds rounded to 0.01, written as JSON.stringify writes it, through whole
 * numbers: V8 writes a small integer through a cache of their strings, a fraction through its
 * shortest-digits search (about 500 instructions, on every access line). Negative and huge values
 * (a clock gone back) take JSON.stringify's way.
 *
 * @example hundredthsAsJson(0.4) // '0.4', as JSON.stringify(0.4)
 */
export function hundredthsAsJson(ms: number): string {
  const whole = Math.round(ms * 100);
  if (!(whole >= 0 && whole < 0x3fffffff)) return JSON.stringify(ms);
  const fraction = whole % 100;
  // `| 0`: a quotient is a double to V8 even when whole, and would be written as one.
  const units = ((whole - fraction) / 100) | 0;
  if (fraction === 0) return `${units}`;
  const digits =
    fraction % 10 === 0 ? `${(fraction / 10) | 0}` : fraction < 10 ? `0${fraction}` : `${fraction}`;
  return `${units}.${digits}`;
}
