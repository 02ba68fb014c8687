import { MAX_PACK_CREDITS, PACK_LIFETIME_MONTHS, type PackKind } from '../accounts/index.js';
import stored from './catalogue.json' with { type: 'json' };

/** One thing the site sells: a Studio pack (12 months of the API, with credits) or a credit top-up. */
export interface Offer {
  id: string;
  kind: PackKind;
  name: string;
  credits: number;
  /** In the currency's minor unit: 2900 with `eur` is €29.00. */
  price: number;
  /** ISO 4217, lower case (as Stripe writes it). */
  currency: string;
  validMonths: number;
}

export interface Catalogue {
  offers: readonly Offer[];
  offer(id: string): Offer | undefined;
}

/**
 * Checks a catalogue (src/checkout/catalogue.json) once, at start: a mistake stops the start naming the
 * offer and the field. Packs last as long as the store keeps them active, so the file says so and the
 * check holds the two together.
 */
export function loadCatalogue(data: unknown): Catalogue {
  const file = data as { currency?: unknown; offers?: unknown };
  if (typeof file.currency !== 'string' || !/^[a-z]{3}$/.test(file.currency))
    throw new Error('catalogue.json: currency must be an ISO 4217 code in lower case, e.g. eur');
  const currency = file.currency;
  if (!Array.isArray(file.offers) || file.offers.length === 0) throw new Error('catalogue.json: offers must be a list');
  const offers = file.offers.map((o: Record<string, unknown>, i): Offer => {
    const at = `catalogue.json: offer ${typeof o.id === 'string' ? o.id : `#${i}`}`;
    if (typeof o.id !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(o.id))
      throw new Error(`${at}: id must be a-z, 0-9, -`);
    if (o.kind !== 'studio' && o.kind !== 'topup') throw new Error(`${at}: kind must be studio or topup`);
    if (typeof o.name !== 'string' || o.name === '') throw new Error(`${at}: name is missing`);
    if (typeof o.credits !== 'number' || !Number.isInteger(o.credits) || o.credits < 1 || o.credits > MAX_PACK_CREDITS)
      throw new Error(`${at}: credits must be a whole number from 1 to ${MAX_PACK_CREDITS}`);
    if (typeof o.price !== 'number' || !Number.isInteger(o.price) || o.price < 1)
      throw new Error(`${at}: price must be a whole number of minor units (cents), at least 1`);
    if (o.validMonths !== PACK_LIFETIME_MONTHS)
      throw new Error(`${at}: validMonths must be ${PACK_LIFETIME_MONTHS}, how long the store keeps a pack active`);
    return {
      id: o.id,
      kind: o.kind,
      name: o.name,
      credits: o.credits,
      price: o.price,
      currency,
      validMonths: o.validMonths,
    };
  });
  const ids = offers.map((o) => o.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new Error(`catalogue.json: offer ${twice} is listed twice`);
  if (!offers.some((o) => o.kind === 'studio')) throw new Error('catalogue.json: no Studio pack is offered');
  const byId = new Map(offers.map((o) => [o.id, o]));
  return { offers, offer: (id) => byId.get(id) };
}

/** The shipped catalogue. */
export const CATALOGUE: Catalogue = loadCatalogue(stored);
