// Vitest setup: every test asserts something. A test that cannot fail is a defect, and one that
// asserts nothing is the plainest case of it; this makes the suite find them.
import { beforeEach, expect } from 'vitest';

beforeEach(() => {
  expect.hasAssertions();
});
