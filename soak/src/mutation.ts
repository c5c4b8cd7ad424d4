const VALID_POST = Buffer.from(
  'POST /api/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    'Content-Length: 51\r\nConnection: close\r\n\r\n{"customer":"Ada","product":"Lamp","quantity":2}  ',
  'latin1',
);

/**
 * A valid POST with a few random bytes flipped, inserted or cut: fuzzing of the parser, the body
 * stage and the validation at once.
 *
 * @example
 * sendRaw(port, mutatedRequest(Math.random), 2000);
 */
export function mutatedRequest(random: () => number): Buffer {
  let bytes = Buffer.from(VALID_POST);
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * bytes.length);
    const choice = random();
    if (choice < 0.5) bytes[at] = Math.floor(random() * 256);
    else if (choice < 0.8) {
      const inserted = Buffer.from([Math.floor(random() * 256)]);
      bytes = Buffer.concat([bytes.subarray(0, at), inserted, bytes.subarray(at)]);
    } else bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
  }
  return bytes;
}
