import { describe, expect, it } from 'vitest';
import { loginRequest, translate } from '@custos/contract';
import { fieldProblem } from './field-problem';

const { email, password } = loginRequest.shape;

describe('a field checked by the contract schema', () => {
  it('is fine when the server would take it', () => {
    expect(fieldProblem(email, ' Member@Example.com ', 'email', 'en')).toBeNull();
    expect(fieldProblem(password, 'x', 'password', 'en')).toBeNull();
  });

  it('says what is missing with the field named, in the language asked for', () => {
    expect(fieldProblem(email, '  ', 'email', 'en')).toBe('please enter e-mail');
    expect(fieldProblem(password, '', 'password', 'ja')).toBe(
      translate('ja', 'reason.required', { field: translate('ja', 'field.password') }),
    );
  });

  it("gives the server's reason otherwise", () => {
    expect(fieldProblem(email, 'not-an-address', 'email', 'en')).toBe(translate('en', 'reason.email'));
    expect(fieldProblem(email, `${'a'.repeat(250)}@example.com`, 'email', 'th')).toBe(translate('th', 'reason.too_long'));
  });
});
