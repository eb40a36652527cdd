import { describe, expect, it } from '@jest/globals';
import { isUuid } from './uuid.js';

describe('isUuid', () => {
  it('takes the 36-character text form in either case', () => {
    expect(isUuid('116e53d2-29b5-46bd-b48b-cf6f1bc8687f')).toBe(true);
    expect(isUuid('116E53D2-29B5-46BD-B48B-CF6F1BC8687F')).toBe(true);
  });

  it.each([
    '',
    'not-a-uuid',
    '116e53d2-29b5-46bd-b48b-cf6f1bc8687',
    '116e53d2-29b5-46bd-b48b-cf6f1bc8687f\n',
    '{116e53d2-29b5-46bd-b48b-cf6f1bc8687f}',
  ])('refuses %j', (value) => expect(isUuid(value)).toBe(false));
});
