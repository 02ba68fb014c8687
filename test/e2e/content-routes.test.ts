import vCard from 'vcf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const helper = async (type: string, body: unknown) => svc.post(`/api/qr/content/${type}`, body);

/** The payload, rendered through /api/qr/generate and decoded, must equal the helper's output. */
async function roundTrip(type: string, body: unknown): Promise<string> {
  const res = await helper(type, body);
  expect(res.status).toBe(200);
  const { success, content } = await res.json();
  expect(success).toBe(true);
  const png = await svc.post('/api/qr/generate', { content, responseType: 'binary' });
  expect(png.status).toBe(200);
  const decoded = await decodeOne('png', new Uint8Array(await png.arrayBuffer()));
  expect(decoded.text).toBe(content);
  return content;
}

describe('content helpers over HTTP, rendered and decoded', () => {
  it('wifi with every special character', async () => {
    const content = await roundTrip('wifi', {
      ssid: 'Café; "Net", a:b\\c',
      password: 'pä;ss,w:o"rd\\1',
      encryption: 'WPA',
      hidden: true,
    });
    expect(content).toBe('WIFI:T:WPA;S:Café\\; \\"Net\\"\\, a\\:b\\\\c;P:pä\\;ss\\,w\\:o\\"rd\\\\1;H:true;;');
  });

  it('wifi without a password for nopass', async () => {
    expect(await roundTrip('wifi', { ssid: 'Guest', encryption: 'nopass' })).toBe('WIFI:T:nopass;S:Guest;H:false;;');
  });

  it('vcard parses back with an independent parser', async () => {
    const input = {
      firstName: 'Zoë',
      lastName: "O'Brien; Jr",
      organization: 'Acme, Inc.',
      title: 'Head of R&D',
      phone: '+44 20 7946 0958',
      email: 'zoe@example.com',
      url: 'https://example.com',
      address: '1 Main St, Springfield',
    };
    const content = await roundTrip('vcard', input);
    const card = new vCard().parse(content);
    expect(card.get('email')?.valueOf()).toBe(input.email);
    expect(card.get('org')?.valueOf()).toBe('Acme\\, Inc.');
    expect(content).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
  });

  it('geo with a query', async () => {
    expect(await roundTrip('geo', { latitude: 48.8584, longitude: 2.2945, query: 'Tour Eiffel, Paris' })).toBe(
      'geo:48.8584,2.2945?q=Tour%20Eiffel%2C%20Paris',
    );
  });

  it('email, sms, tel, mecard, event, epc', async () => {
    await roundTrip('email', { to: 'a@example.com', subject: 'Hi & bye', body: 'Line 1\nLine 2' });
    await roundTrip('sms', { number: '+15551234567', message: 'Call me: now' });
    await roundTrip('tel', { number: '+15551234567' });
    await roundTrip('mecard', { firstName: 'Ana', lastName: 'Ruiz', phone: '+34600000000' });
    await roundTrip('event', {
      summary: 'Launch; party',
      start: '2026-12-01T18:00:00Z',
      end: '2026-12-01T21:00:00Z',
      location: 'Berlin',
    });
    await roundTrip('epc', {
      name: 'Red Cross',
      iban: 'DE89370400440532013000',
      amount: 12.5,
      remittanceText: 'Donation',
    });
  });
});

describe('content helper errors', () => {
  it('missing required fields name the field', async () => {
    expect(await (await helper('wifi', { encryption: 'WPA' })).json()).toMatchObject({
      code: 'MISSING_REQUIRED_FIELD',
      field: 'ssid',
    });
    expect(await (await helper('wifi', { ssid: 'x', encryption: 'WPA' })).json()).toMatchObject({
      code: 'MISSING_REQUIRED_FIELD',
      field: 'password',
    });
    expect(await (await helper('geo', { latitude: 1 })).json()).toMatchObject({
      code: 'MISSING_REQUIRED_FIELD',
      field: 'longitude',
    });
  });

  it('out-of-range coordinates are VALUE_OUT_OF_RANGE', async () => {
    const res = await helper('geo', { latitude: 91, longitude: 0 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALUE_OUT_OF_RANGE', field: 'latitude' });
  });

  it('a bad IBAN checksum is INVALID_FIELD_VALUE on iban', async () => {
    expect(await (await helper('epc', { name: 'X', iban: 'DE89370400440532013001', amount: 1 })).json()).toMatchObject({
      code: 'INVALID_FIELD_VALUE',
      field: 'iban',
    });
  });

  it('unknown helper type is 404; bad JSON is INVALID_JSON', async () => {
    const res = await helper('fax', {});
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await (await helper('geo', '{oops')).json()).toMatchObject({ code: 'INVALID_JSON' });
  });
});
