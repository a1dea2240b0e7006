import { describe, expect, it } from 'vitest';
import { ZONE_SLACK_MS, datesNamed, inSpans } from '../../src/contexts/recall/testing.js';

const day = (y: number, m: number, d: number) => ({
  from: Date.UTC(y, m - 1, d) - ZONE_SLACK_MS,
  to: Date.UTC(y, m - 1, d + 1) + ZONE_SLACK_MS,
});
const month = (y: number, m: number) => ({
  from: Date.UTC(y, m - 1, 1) - ZONE_SLACK_MS,
  to: Date.UTC(y, m, 1) + ZONE_SLACK_MS,
});

describe('dates a question names', () => {
  it('reads a day in the common English forms', () => {
    expect(datesNamed('What painting did she show on October 13, 2023?')).toEqual([day(2023, 10, 13)]);
    expect(datesNamed('What did Maria start, as mentioned on 3 June, 2023?')).toEqual([day(2023, 6, 3)]);
    expect(datesNamed('the 3rd of June 2023')).toEqual([day(2023, 6, 3)]);
    expect(datesNamed('what happened on 2023-06-03')).toEqual([day(2023, 6, 3)]);
    expect(datesNamed('the alert at 2023-06-03T10:00:00Z')).toEqual([day(2023, 6, 3)]);
    expect(datesNamed('Dec. 1st, 2026')).toEqual([day(2026, 12, 1)]);
  });

  it('reads a month with its year, and does not read a day as its month too', () => {
    expect(datesNamed('What did John host in May 2023?')).toEqual([month(2023, 5)]);
    expect(datesNamed('in Sept. 2022')).toEqual([month(2022, 9)]);
    expect(datesNamed('between 3 June 2023 and July 2023')).toEqual([day(2023, 6, 3), month(2023, 7)]);
  });

  it('reads nothing without a year, and nothing that is no date', () => {
    expect(datesNamed('I may go in June')).toEqual([]);
    expect(datesNamed('When did Nate win his third tourney?')).toEqual([]);
    expect(datesNamed('on 2023-13-40')).toEqual([]);
    // 31 June does not exist: only the month is read
    expect(datesNamed('31 June 2023')).toEqual([month(2023, 6)]);
  });

  it('tells whether a memory happened within a named span, allowing for the asker’s time zone', () => {
    const spans = datesNamed('on 3 June 2023');
    expect(inSpans(Date.UTC(2023, 5, 3, 12), spans)).toBe(1);
    expect(inSpans(Date.UTC(2023, 5, 2, 20), spans)).toBe(1); // 3 June already, east of UTC
    expect(inSpans(Date.UTC(2023, 5, 5, 12), spans)).toBe(0);
    expect(inSpans(Date.UTC(2023, 5, 3), [])).toBe(0);
  });
});
