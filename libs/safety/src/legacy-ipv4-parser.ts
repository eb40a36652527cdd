/**
 * Parses the IPv4 spellings that `inet_aton` and the WHATWG URL parser accept besides dotted decimal:
 * one to four parts, each decimal, octal (leading `0`) or hex (`0x`), the last part filling the
 * remaining bytes (`127.1`, `0x7f.1`, `2130706433`, `0177.0.0.1`, mixed forms). Returns the address
 * in dotted-decimal form, or undefined when the text is not an IPv4 address in any of these spellings.
 */
export function parseLegacyIpv4(text: string): string | undefined {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parseIpv4Part(part);
    if (value === undefined) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  // Leading parts are single bytes; the last part fills every byte that is left.
  if (numbers.some((value) => value > 255)) return undefined;
  const lastBytes = 4 - numbers.length;
  if (last >= 256 ** lastBytes) return undefined;
  let value = last;
  numbers.forEach((byte, index) => {
    value += byte * 256 ** (3 - index);
  });
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

function parseIpv4Part(part: string): number | undefined {
  if (part === '') return undefined;
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    if (digits === '') return 0;
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  const allowed = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!allowed.test(digits)) return undefined;
  const value = parseInt(digits, radix);
  return Number.isSafeInteger(value) ? value : undefined;
}
