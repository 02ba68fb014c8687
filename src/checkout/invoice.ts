import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import type { Invoice } from '../accounts/index.js';

/** How an invoice number is written: INV- and at least six digits. */
export const invoiceNumberText = (n: number): string => `INV-${String(n).padStart(6, '0')}`;

/** The tax a price includes at `percent`, in minor units, and the price without it. */
export function taxOf(price: number, percent: number): { net: number; tax: number } {
  const tax = Math.round((price * percent) / (100 + percent));
  return { net: price - tax, tax };
}

const money = (minor: number, currency: string): string =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);

const day = (d: Date): string => d.toISOString().slice(0, 10);

/** What the order bought, in a line: the pack and its end, or the credits of a top-up. */
export function itemOf(invoice: Invoice): string {
  const { order, pack } = invoice;
  if (order.kind === 'topup') return `${order.credits} AI credits (top-up of a Studio pack)`;
  const end = pack === null ? '' : `, until ${day(pack.expiresAt)}`;
  return `Studio pack: the API${end}, with ${order.credits} AI credits`;
}

/** Characters the standard font cannot write (it speaks WinAnsi) become '?', rather than failing the PDF. */
function writable(font: PDFFont, text: string): string {
  return [...text]
    .map((ch) => {
      try {
        font.encodeText(ch);
        return ch;
      } catch {
        return '?';
      }
    })
    .join('');
}

/**
 * The invoice of a paid order as a one-page A4 PDF: the seller (as configured when it was paid), the buyer,
 * the item, the price without tax, the tax and the total, under its number. Its text is real text, which
 * a reader (or pdftotext) extracts.
 */
export async function invoicePdf(invoice: Invoice): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const number = invoiceNumberText(invoice.number);
  doc.setTitle(`Invoice ${number}`);
  doc.setCreator('qrfarm');
  doc.setCreationDate(invoice.issuedAt);
  doc.setModificationDate(invoice.issuedAt);
  const page = doc.addPage([595.28, 841.89]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let y = 780;
  const line = (text: string, o: { size?: number; font?: PDFFont; x?: number; gap?: number } = {}) => {
    const font = o.font ?? regular;
    const size = o.size ?? 11;
    page.drawText(writable(font, text), { x: o.x ?? 56, y, size, font });
    y -= o.gap ?? size + 5;
  };
  const { order, seller } = invoice;
  line(`Invoice ${number}`, { size: 20, font: bold, gap: 30 });
  line(`Date: ${day(invoice.issuedAt)}`);
  line(`Order: ${order.id}`, { gap: 26 });

  line('Seller', { font: bold });
  line(seller.name);
  for (const l of seller.address.split('\n').filter((s) => s.trim() !== '')) line(l);
  if (seller.taxId !== '') line(`Tax id: ${seller.taxId}`);
  y -= 10;
  line('Buyer', { font: bold });
  line(invoice.buyerEmail, { gap: 26 });

  const { net, tax } = taxOf(order.price, seller.taxPercent);
  const row = (label: string, value: string, font = regular) => {
    page.drawText(writable(font, label), { x: 56, y, size: 11, font });
    const text = writable(font, value);
    page.drawText(text, { x: 539 - font.widthOfTextAtSize(text, 11), y, size: 11, font });
    y -= 18;
  };
  line('Item', { font: bold });
  row(itemOf(invoice), money(net, order.currency));
  y -= 8;
  row('Price without tax', money(net, order.currency));
  row(
    seller.taxPercent === 0 ? 'Tax (0 %)' : `Tax (${seller.taxPercent} %, included in the price)`,
    money(tax, order.currency),
  );
  row('Total paid', money(order.price, order.currency), bold);
  y -= 16;
  line(
    `Paid on ${day(order.paidAt ?? invoice.issuedAt)}${order.provider === 'test' ? ' in test mode: no money moved' : ''}.`,
    {
      size: 9,
    },
  );
  return doc.save();
}
