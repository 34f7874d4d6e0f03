import { describe, expect, it } from 'vitest';
import { changeDirection, changeText, groupDigits } from './quote-format';

describe('quote format', () => {
  it('groups the whole part and keeps every decimal as the server sent it', () => {
    expect(groupDigits('91234.56')).toBe('91,234.56');
    expect(groupDigits('1234567')).toBe('1,234,567');
    expect(groupDigits('0.16543')).toBe('0.16543');
    expect(groupDigits('100')).toBe('100');
    expect(groupDigits('123456789012.12345678')).toBe('123,456,789,012.12345678');
  });

  it('colours rises, falls and no change, and signs a rise', () => {
    expect([changeDirection('2.50'), changeText('2.50')]).toEqual(['up', '+2.50%']);
    expect([changeDirection('-10.00'), changeText('-10.00')]).toEqual(['down', '-10.00%']);
    expect([changeDirection('0.00'), changeText('0.00')]).toEqual(['flat', '0.00%']);
  });
});
