/** The text form of the ids on the wire (`format: 'uuid'` in the schemas), for checks outside a schema. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` is a UUID in its 36-character text form. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
