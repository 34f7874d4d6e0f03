import { describe, expect, it } from 'vitest';
import { deepLinkTarget } from './deep-link';

describe('deep links into the Android app', () => {
  it('opens an invitation link on the register page with its code, signed in or not', () => {
    expect(deepLinkTarget('https://custos.example/#/pages/register/register?code=AB12CD', false)).toBe(
      '/pages/register/register?code=AB12CD',
    );
    expect(deepLinkTarget('custos://open/#/pages/register/register?code=AB12CD', true)).toBe(
      '/pages/register/register?code=AB12CD',
    );
  });

  it('keeps the start-up rule for other routes and ignores links without a route', () => {
    expect(deepLinkTarget('https://custos.example/#/pages/assets/assets', false)).toBe('/pages/login/login');
    expect(deepLinkTarget('https://custos.example/#/pages/assets/assets', true)).toBe('/pages/assets/assets');
    expect(deepLinkTarget('https://custos.example/', true)).toBeNull();
    expect(deepLinkTarget('not a url', true)).toBeNull();
  });
});
