import { describe, expect, it } from 'vitest';
import { createBackHandler } from './back-button';

function setup(isRoot: boolean) {
  let now = 0;
  const calls: string[] = [];
  const press = createBackHandler({
    now: () => now,
    isRootPage: () => isRoot,
    goBack: () => calls.push('back'),
    exitApp: () => calls.push('exit'),
    promptExit: () => calls.push('prompt'),
  });
  return { press, calls, advance: (ms: number) => (now += ms) };
}

describe('Android back button', () => {
  it('goes back on an inner page', () => {
    const { press, calls } = setup(false);
    press();
    press();
    expect(calls).toEqual(['back', 'back']);
  });

  it('prompts on a root page, and quits on a second press within 2 s', () => {
    const { press, calls, advance } = setup(true);
    press();
    advance(1500);
    press();
    expect(calls).toEqual(['prompt', 'exit']);
  });

  it('prompts again when the second press comes too late', () => {
    const { press, calls, advance } = setup(true);
    press();
    advance(2500);
    press();
    expect(calls).toEqual(['prompt', 'prompt']);
  });
});
