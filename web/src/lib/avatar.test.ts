import { describe, expect, it } from 'vitest';
import { avatarSource } from './avatar';

describe('avatar source', () => {
  it('tells a platform avatar from an uploaded one', () => {
    expect(avatarSource('avatars/a05.svg')).toEqual({ kind: 'platform', src: './avatars/a05.svg' });
    expect(avatarSource('upload:0b9c1f6e-2a3d-4e5f-8a7b-1c2d3e4f5a6b')).toEqual({
      kind: 'upload',
      uploadId: '0b9c1f6e-2a3d-4e5f-8a7b-1c2d3e4f5a6b',
      path: '/api/upload/image/0b9c1f6e-2a3d-4e5f-8a7b-1c2d3e4f5a6b',
    });
  });

  it('has nothing to show without an avatar', () => {
    expect(avatarSource(null)).toBeNull();
    expect(avatarSource('')).toBeNull();
  });
});
