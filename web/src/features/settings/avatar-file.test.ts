import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '@custos/contract';
import { avatarFileProblem } from './avatar-file';

describe('picked avatar file', () => {
  it('may be a JPEG, PNG or WebP up to 2 MB', () => {
    expect(avatarFileProblem({ type: 'image/png', size: 1024 })).toBeNull();
    expect(avatarFileProblem({ type: 'image/jpeg', size: UPLOAD_MAX_BYTES })).toBeNull();
    expect(avatarFileProblem({ type: 'image/webp', size: 1 })).toBeNull();
  });

  it('is refused before sending when too large or of another known type', () => {
    expect(avatarFileProblem({ type: 'image/png', size: UPLOAD_MAX_BYTES + 1 })).toBe('upload.too_large');
    expect(avatarFileProblem({ type: 'image/gif', size: 1024 })).toBe('upload.invalid_type');
    expect(avatarFileProblem({ type: 'image/svg+xml', size: 1024 })).toBe('upload.invalid_type');
    expect(avatarFileProblem({ type: 'image/png', size: 0 })).toBe('upload.invalid_type');
  });

  it('leaves a file of unknown type to the server, which reads its bytes', () => {
    expect(avatarFileProblem({ type: '', size: 1024 })).toBeNull();
  });
});
