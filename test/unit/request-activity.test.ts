import { describe, expect, it } from 'vitest';
import { RequestActivity } from '../../src/adapters/request-activity.js';

describe('RequestActivity', () => {
  it('is busy while a request runs and for the quiet time after the last one ended', () => {
    let now = 1_000;
    const activity = new RequestActivity(250, () => now);
    expect(activity.busy()).toBe(false);
    const done = activity.begin();
    now += 5_000;
    expect(activity.busy()).toBe(true); // still running, however long
    done();
    done(); // a second call changes nothing
    now += 249;
    expect(activity.busy()).toBe(true);
    now += 1;
    expect(activity.busy()).toBe(false);
  });
});
