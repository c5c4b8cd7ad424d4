/** An id keel generated for a request: its process's 64 random bits in hexadecimal, then the request's count in base 36. */
export const GENERATED_REQUEST_ID = /^([0-9a-f]{16})-([1-9a-z][0-9a-z]*)$/;
