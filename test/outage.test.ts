import { describe, expect, it } from 'vitest';
import { OutageLog } from '../src/outage.js';

describe('OutageLog', () => {
  it('logs the first failure of each outage and, when given, its end', async () => {
    const lines: string[] = [];
    const outage = new OutageLog((l) => lines.push(l), 'back');
    const fail = () => Promise.reject(new Error('down'));
    await outage.run(fail, (e) => `first: ${e.message}`);
    await outage.run(fail, () => 'second');
    await outage.run(
      async () => {},
      () => 'never',
    );
    await outage.run(
      async () => {},
      () => 'never',
    );
    outage.failed(() => 'again');
    expect(lines).toEqual(['first: down', 'back', 'again']);
  });

  it('says nothing at the end of an outage without a recovery line', () => {
    const lines: string[] = [];
    const outage = new OutageLog((l) => lines.push(l));
    outage.failed(() => 'down');
    outage.succeeded();
    expect(lines).toEqual(['down']);
  });
});
