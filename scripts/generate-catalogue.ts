/**
 * Writes src/templates/catalogue.json from the design table below; the committed JSON is the source of
 * truth, this table is how it was made. Deterministic: the same table writes the same bytes.
 *
 *   npm run build && node dist/scripts/generate-catalogue.js
 *
 * The file is written only when the whole catalogue passes the service's own start-up check
 * (src/templates/check.ts) and every template draws a module/eye-shape combination no other one draws,
 * compared by the geometry the shapes produce, so aliases (`dots` and `circle`) count as one.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { finderInnerPath, finderOuterPath } from '../src/design/finder-eyes.js';
import { gridFromSymbol } from '../src/design/grid.js';
import { modulesPath } from '../src/design/module-shapes.js';
import type { FinderInnerShape, FinderOuterShape, ModuleShape } from '../src/model/vocabulary.js';
import { encode } from '../src/qr/encode.js';
import { loadCatalogue, type TemplateConfig } from '../src/templates/check.js';

type Design = TemplateConfig & {
  moduleShape: ModuleShape;
  finderOuterShape: FinderOuterShape;
  finderInnerShape: FinderInnerShape;
};
type Entry = [name: string, tags: string[], config: Design];

/** Evenly spaced stops from the colours given. */
const stops = (colors: string[]) =>
  colors.map((color, i) => ({ offset: Math.round((i / (colors.length - 1)) * 100) / 100, color }));
const linear = (rotation: number, ...colors: string[]) => ({ type: 'linear' as const, rotation, stops: stops(colors) });
const radial = (...colors: string[]) => ({ type: 'radial' as const, stops: stops(colors) });
/** Per-eye [ring, centre] colours, top-left, top-right, bottom-left. */
const eyes = (...pairs: [string, string][]) => pairs.map(([outerColor, innerColor]) => ({ outerColor, innerColor }));
/** A caption on a frame; frame colour follows the design unless given. */
const framed = (frameStyle: Design['frameStyle'], ctaText: string, frameColor?: string) => ({
  frameStyle,
  ctaText,
  ...(frameColor && { frameColor }),
});
/** A centre band covers modules, so these designs carry the most error correction. */
const band = (text: string, color: string, backgroundColor: string) => ({
  centerText: { text, color, backgroundColor },
  eccLevel: 'H' as const,
});

const CATALOGUE: Record<string, Entry[]> = {
  business: [
    [
      'Boardroom Navy',
      ['corporate', 'navy', 'classic'],
      {
        primaryColor: '#0B2545',
        backgroundColor: '#FFFFFF',
        moduleShape: 'square',
        finderOuterShape: 'square',
        finderInnerShape: 'square',
        finderInnerColor: '#13315C',
        ...framed('box-bottom', 'SCAN ME'),
      },
    ],
    [
      'Ledger Charcoal',
      ['corporate', 'grey', 'rounded'],
      {
        primaryColor: '#2B2D42',
        backgroundColor: '#F8F9FA',
        moduleShape: 'rounded',
        finderOuterShape: 'rounded',
        finderInnerShape: 'rounded',
        finderInnerColor: '#D90429',
      },
    ],
    [
      'Slate Consultant',
      ['consulting', 'gradient', 'blue'],
      {
        primaryColor: '#1D3557',
        backgroundColor: '#F1FAEE',
        foregroundGradient: linear(45, '#1D3557', '#36648B'),
        moduleShape: 'classy',
        finderOuterShape: 'classy',
        finderInnerShape: 'classy',
      },
    ],
    [
      'Forest Partners',
      ['corporate', 'green', 'sustainable'],
      {
        primaryColor: '#1B4332',
        backgroundColor: '#FFFFFF',
        moduleShape: 'smooth-round',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'dot',
        finderInnerColor: '#2D6A4F',
      },
    ],
    [
      'Burgundy Counsel',
      ['law', 'burgundy', 'formal'],
      {
        primaryColor: '#6D071A',
        backgroundColor: '#FFF9F5',
        moduleShape: 'classy-rounded',
        finderOuterShape: 'cut-corner',
        finderInnerShape: 'cut-corner',
        ...framed('banner-bottom', 'Book a consultation'),
      },
    ],
    [
      'Teal Ledger',
      ['finance', 'teal', 'soft'],
      {
        primaryColor: '#005F73',
        backgroundColor: '#FFFFFF',
        moduleShape: 'squircle',
        finderOuterShape: 'squircle',
        finderInnerShape: 'squircle',
        finderOuterColor: '#0A7C80',
      },
    ],
    [
      'Steel Business Card',
      ['business-card', 'vcard', 'blue'],
      {
        primaryColor: '#343A40',
        backgroundColor: '#FFFFFF',
        moduleShape: 'dots',
        finderOuterShape: 'rounded',
        finderInnerShape: 'rounded',
        finderOuterColor: '#0069A8',
        finderInnerColor: '#0069A8',
        ...framed('box-top', 'SAVE MY CONTACT', '#0069A8'),
      },
    ],
    [
      'Graphite Grid',
      ['corporate', 'grey', 'geometric'],
      {
        primaryColor: '#212529',
        backgroundColor: '#FFFFFF',
        backgroundGradient: linear(90, '#FFFFFF', '#E9ECEF'),
        moduleShape: 'smooth-sharp',
        finderOuterShape: 'octagon',
        finderInnerShape: 'octagon',
      },
    ],
    [
      'Indigo Pitch',
      ['startup', 'gradient', 'indigo'],
      {
        primaryColor: '#3A0CA3',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(135, '#3A0CA3', '#3F5BD8'),
        moduleShape: 'extra-rounded',
        finderOuterShape: 'drop',
        finderInnerShape: 'drop',
        ...framed('balloon-bottom', 'Learn more'),
      },
    ],
    [
      'Copper Firm',
      ['architecture', 'copper', 'hexagon'],
      {
        primaryColor: '#7F4F24',
        backgroundColor: '#FFFCF7',
        moduleShape: 'hexagon',
        finderOuterShape: 'shield',
        finderInnerShape: 'shield',
        finderInnerColor: '#582F0E',
      },
    ],
  ],
  restaurant: [
    [
      'Bistro Chalk',
      ['menu', 'bistro', 'dots'],
      {
        primaryColor: '#2F3E46',
        backgroundColor: '#FDF6EC',
        moduleShape: 'circle',
        finderOuterShape: 'circle',
        finderInnerShape: 'dot',
        ...framed('box-bottom', 'SCAN FOR MENU'),
      },
    ],
    [
      'Tomato Trattoria',
      ['italian', 'menu', 'red'],
      {
        primaryColor: '#B3261E',
        backgroundColor: '#FFF8F0',
        moduleShape: 'rounded',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'rounded',
        finderEyes: eyes(['#B3261E', '#2E7D32'], ['#B3261E', '#2E7D32'], ['#B3261E', '#2E7D32']),
        ...framed('banner-top', 'MENU'),
      },
    ],
    [
      'Espresso Bar',
      ['cafe', 'coffee', 'brown'],
      {
        primaryColor: '#4E342E',
        backgroundColor: '#F5EBDD',
        moduleShape: 'extra-rounded',
        finderOuterShape: 'right-leaf',
        finderInnerShape: 'drop',
        ...framed('banner-bottom', 'ORDER HERE'),
      },
    ],
    [
      'Sushi Ink',
      ['japanese', 'menu', 'black'],
      {
        primaryColor: '#1A1A1A',
        backgroundColor: '#FFFFFF',
        moduleShape: 'classy',
        finderOuterShape: 'left-leaf',
        finderInnerShape: 'left-leaf',
        finderInnerColor: '#C62828',
      },
    ],
    [
      'Olive Grove',
      ['mediterranean', 'green', 'leaf'],
      {
        primaryColor: '#3D5A1E',
        backgroundColor: '#FAF8EF',
        moduleShape: 'leaf',
        finderOuterShape: 'right-leaf',
        finderInnerShape: 'right-leaf',
        finderInnerColor: '#5C4A1E',
      },
    ],
    [
      'Chili Cantina',
      ['mexican', 'spicy', 'gradient'],
      {
        primaryColor: '#9B2226',
        backgroundColor: '#FFF3E0',
        foregroundGradient: linear(45, '#9B2226', '#B23A03'),
        moduleShape: 'star',
        finderOuterShape: 'flower',
        finderInnerShape: 'star',
        ...framed('balloon-bottom', 'Tacos this way!'),
      },
    ],
    [
      'Sweet Bakery',
      ['bakery', 'dessert', 'chocolate'],
      {
        primaryColor: '#6B3A1E',
        backgroundColor: '#FFF4E6',
        moduleShape: 'heart',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'heart',
        finderInnerColor: '#B5345D',
      },
    ],
    [
      'Taqueria Verde',
      ['mexican', 'green', 'hexagon'],
      {
        primaryColor: '#1B5E20',
        backgroundColor: '#FFFDE7',
        moduleShape: 'octagon',
        finderOuterShape: 'octagon',
        finderInnerShape: 'dot',
        finderInnerColor: '#B71C1C',
      },
    ],
    [
      'Wine Cellar',
      ['wine', 'bar', 'burgundy'],
      {
        primaryColor: '#5A0F2E',
        backgroundColor: '#F8F1E9',
        moduleShape: 'classy-rounded',
        finderOuterShape: 'classy',
        finderInnerShape: 'diamond',
        ...band('WINE LIST', '#F8F1E9', '#5A0F2E'),
      },
    ],
    [
      'Noodle House',
      ['asian', 'noodles', 'lines'],
      {
        primaryColor: '#0D3B66',
        backgroundColor: '#FAF0CA',
        moduleShape: 'horizontal',
        finderOuterShape: 'rounded',
        finderInnerShape: 'square',
        finderOuterColor: '#A4161A',
        finderInnerColor: '#A4161A',
      },
    ],
  ],
  retail: [
    [
      'Flash Sale',
      ['sale', 'red', 'promo'],
      {
        primaryColor: '#B00000',
        backgroundColor: '#FFFFFF',
        moduleShape: 'diamond',
        finderOuterShape: 'cut-corner',
        finderInnerShape: 'diamond',
        ...band('SALE', '#FFFFFF', '#B00000'),
      },
    ],
    [
      'Boutique Blush',
      ['fashion', 'boutique', 'pink'],
      {
        primaryColor: '#8E2C4E',
        backgroundColor: '#FFF5F7',
        moduleShape: 'dots',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'extra-rounded',
        ...framed('text-only', 'New collection'),
      },
    ],
    [
      'Cobalt Store',
      ['shop', 'blue', 'gradient'],
      {
        primaryColor: '#023E8A',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(90, '#023E8A', '#0069A8'),
        moduleShape: 'rounded',
        finderOuterShape: 'squircle',
        finderInnerShape: 'dot',
      },
    ],
    [
      'Price Tag',
      ['price', 'yellow', 'label'],
      {
        primaryColor: '#1D1D1D',
        backgroundColor: '#FFE66D',
        moduleShape: 'square',
        finderOuterShape: 'ticket',
        finderInnerShape: 'rounded',
        ...framed('box-bottom', 'SCAN FOR PRICE'),
      },
    ],
    [
      'Streetwear Mono',
      ['fashion', 'black', 'mosaic'],
      {
        primaryColor: '#000000',
        backgroundColor: '#FFFFFF',
        moduleShape: 'mosaic',
        finderOuterShape: 'square',
        finderInnerShape: 'plus',
      },
    ],
    [
      'Gift Shop',
      ['gifts', 'red', 'ribbon'],
      {
        primaryColor: '#6A040F',
        backgroundColor: '#FFF8F0',
        moduleShape: 'plus',
        finderOuterShape: 'plus',
        finderInnerShape: 'square',
        finderInnerColor: '#9D0208',
        ...band('GIFT', '#FFF8F0', '#6A040F'),
      },
    ],
    [
      'Magenta Pop',
      ['shop', 'magenta', 'gradient'],
      {
        primaryColor: '#7209B7',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(45, '#7209B7', '#B5179E'),
        moduleShape: 'extra-rounded',
        finderOuterShape: 'dots',
        finderInnerShape: 'circle',
        ...framed('balloon-top', 'Shop now'),
      },
    ],
    [
      'Eco Market',
      ['organic', 'green', 'market'],
      {
        primaryColor: '#2D6A4F',
        backgroundColor: '#F1F8E9',
        moduleShape: 'leaf',
        finderOuterShape: 'left-leaf',
        finderInnerShape: 'dot',
      },
    ],
    [
      'Loyalty Card',
      ['loyalty', 'rewards', 'purple'],
      {
        primaryColor: '#3C096C',
        backgroundColor: '#FFFFFF',
        moduleShape: 'squircle',
        finderOuterShape: 'rounded',
        finderInnerShape: 'star',
        finderInnerColor: '#9D4EDD',
        ...framed('box-bottom', 'COLLECT POINTS'),
      },
    ],
  ],
  events: [
    [
      'Confetti Party',
      ['party', 'colourful', 'celebration'],
      {
        primaryColor: '#111827',
        backgroundColor: '#FFFFFF',
        moduleShape: 'dots',
        finderOuterShape: 'circle',
        finderInnerShape: 'star',
        finderEyes: eyes(['#C81D25', '#C81D25'], ['#1D4ED8', '#1D4ED8'], ['#047857', '#047857']),
      },
    ],
    [
      'Concert Night',
      ['music', 'concert', 'purple'],
      {
        primaryColor: '#240046',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(90, '#240046', '#5A189A'),
        moduleShape: 'classy',
        finderOuterShape: 'drop',
        finderInnerShape: 'drop',
        ...framed('banner-bottom', 'GET TICKETS'),
      },
    ],
    [
      'Wedding Ivory',
      ['wedding', 'rsvp', 'elegant'],
      {
        primaryColor: '#5C4033',
        backgroundColor: '#FFFBF2',
        moduleShape: 'classy-rounded',
        finderOuterShape: 'flower',
        finderInnerShape: 'dot',
        finderInnerColor: '#B5345D',
        ...framed('text-only', 'RSVP'),
      },
    ],
    [
      'Conference Badge',
      ['conference', 'badge', 'blue'],
      {
        primaryColor: '#0F4C81',
        backgroundColor: '#FFFFFF',
        moduleShape: 'smooth-sharp',
        finderOuterShape: 'ticket',
        finderInnerShape: 'square',
        ...framed('box-top', 'CHECK IN'),
      },
    ],
    [
      'Festival Sunset',
      ['festival', 'summer', 'gradient'],
      {
        primaryColor: '#7B1E1E',
        backgroundColor: '#FFF3B0',
        foregroundGradient: linear(90, '#7B1E1E', '#8F2D0F'),
        finderOuterGradient: linear(0, '#5C1010', '#8F2D0F'),
        backgroundGradient: linear(90, '#FFF3B0', '#FFE1D0'),
        moduleShape: 'rounded',
        finderOuterShape: 'flower',
        finderInnerShape: 'flower',
      },
    ],
    [
      'Gala Noir',
      ['gala', 'black-tie', 'gold'],
      {
        primaryColor: '#111111',
        backgroundColor: '#FFFDF7',
        moduleShape: 'diamond',
        finderOuterShape: 'octagon',
        finderInnerShape: 'diamond',
        finderOuterColor: '#7A5C12',
        finderInnerColor: '#7A5C12',
      },
    ],
    [
      'Marathon Run',
      ['sports', 'race', 'red'],
      {
        primaryColor: '#C1121F',
        backgroundColor: '#FFFFFF',
        moduleShape: 'right-diamond',
        finderOuterShape: 'right-leaf',
        finderInnerShape: 'right-diamond',
        ...framed('banner-top', 'TRACK YOUR RUN'),
      },
    ],
    [
      'Ticket Stub',
      ['tickets', 'admission', 'teal'],
      {
        primaryColor: '#014F5A',
        backgroundColor: '#FDFCDC',
        moduleShape: 'square',
        finderOuterShape: 'dashed',
        finderInnerShape: 'square',
        ...framed('focus', 'ADMIT ONE'),
      },
    ],
    [
      'Save The Date',
      ['invitation', 'calendar', 'rose'],
      {
        primaryColor: '#7D1D3F',
        backgroundColor: '#FFF7F8',
        moduleShape: 'circle',
        finderOuterShape: 'drop',
        finderInnerShape: 'heart',
        finderEyes: eyes(['#7D1D3F', '#B5345D'], ['#7D1D3F', '#B5345D'], ['#7D1D3F', '#B5345D']),
      },
    ],
  ],
  social: [
    [
      'Insta Glow',
      ['instagram', 'gradient', 'follow'],
      {
        primaryColor: '#833AB4',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(45, '#6A2C9E', '#A62B7A', '#C2185B'),
        finderOuterGradient: linear(135, '#C2185B', '#6A2C9E'),
        moduleShape: 'rounded',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'dot',
        ...framed('box-bottom', 'FOLLOW US', '#8E2C8E'),
      },
    ],
    [
      'Follow Blue',
      ['facebook', 'blue', 'like'],
      {
        primaryColor: '#1565C0',
        backgroundColor: '#FFFFFF',
        moduleShape: 'dots',
        finderOuterShape: 'rounded',
        finderInnerShape: 'dot',
        ...framed('balloon-bottom', 'Like our page'),
      },
    ],
    [
      'Chirp Sky',
      ['social', 'light-blue', 'short'],
      {
        primaryColor: '#0B5E8E',
        backgroundColor: '#F5FBFF',
        moduleShape: 'smooth-round',
        finderOuterShape: 'circle',
        finderInnerShape: 'circle',
      },
    ],
    [
      'Podcast Wave',
      ['podcast', 'audio', 'lines'],
      {
        primaryColor: '#4A148C',
        backgroundColor: '#FFFFFF',
        moduleShape: 'vertical',
        finderOuterShape: 'rounded',
        finderInnerShape: 'dot',
        ...framed('banner-bottom', 'LISTEN NOW'),
      },
    ],
    [
      'Creator Pink',
      ['creator', 'tiktok', 'pink'],
      {
        primaryColor: '#AD1457',
        backgroundColor: '#FFFFFF',
        moduleShape: 'kite',
        finderOuterShape: 'left-leaf',
        finderInnerShape: 'left-diamond',
        finderEyes: eyes(['#111111', '#AD1457'], ['#111111', '#00707A'], ['#111111', '#AD1457']),
      },
    ],
    [
      'Video Red',
      ['youtube', 'video', 'subscribe'],
      {
        primaryColor: '#B71C1C',
        backgroundColor: '#FFFFFF',
        moduleShape: 'rounded',
        finderOuterShape: 'rounded',
        finderInnerShape: 'right-leaf',
        finderInnerColor: '#212121',
        ...framed('box-bottom', 'SUBSCRIBE'),
      },
    ],
    [
      'Chat Green',
      ['whatsapp', 'chat', 'green'],
      {
        primaryColor: '#075E54',
        backgroundColor: '#F0FFF4',
        moduleShape: 'extra-rounded',
        finderOuterShape: 'circle',
        finderInnerShape: 'rounded',
        ...framed('balloon-top', 'Chat with us'),
      },
    ],
    [
      'Link In Bio',
      ['links', 'bio', 'pastel'],
      {
        primaryColor: '#3D2C8D',
        backgroundColor: '#FFF8F0',
        backgroundGradient: linear(135, '#FFF1F5', '#EEF2FF'),
        moduleShape: 'squircle',
        finderOuterShape: 'squircle',
        finderInnerShape: 'heart',
      },
    ],
    [
      'Community Circle',
      ['community', 'group', 'colourful'],
      {
        primaryColor: '#283593',
        backgroundColor: '#FFFFFF',
        moduleShape: 'circle',
        finderOuterShape: 'dots',
        finderInnerShape: 'dot',
        finderEyes: eyes(['#283593', '#C2185B'], ['#283593', '#00796B'], ['#283593', '#B33C00']),
      },
    ],
  ],
  wifi: [
    [
      'Cafe WiFi',
      ['wifi', 'cafe', 'guest'],
      {
        primaryColor: '#5D4037',
        backgroundColor: '#FFF8E1',
        moduleShape: 'dots',
        finderOuterShape: 'squircle',
        finderInnerShape: 'squircle',
        ...framed('box-bottom', 'FREE WI-FI'),
      },
    ],
    [
      'Guest Network',
      ['wifi', 'guest', 'home'],
      {
        primaryColor: '#1F3B4D',
        backgroundColor: '#FFFFFF',
        moduleShape: 'rounded',
        finderOuterShape: 'circle',
        finderInnerShape: 'rounded',
        ...framed('banner-top', 'JOIN OUR WI-FI'),
      },
    ],
    [
      'Hotel Lobby WiFi',
      ['wifi', 'hotel', 'hospitality'],
      {
        primaryColor: '#2C3E50',
        backgroundColor: '#FDFBF6',
        moduleShape: 'classy',
        finderOuterShape: 'rounded',
        finderInnerShape: 'classy',
        finderInnerColor: '#7A5C12',
        ...framed('text-only', 'Scan to connect'),
      },
    ],
    [
      'Signal Blue',
      ['wifi', 'blue', 'signal'],
      {
        primaryColor: '#0D47A1',
        backgroundColor: '#FFFFFF',
        foregroundGradient: radial('#0D47A1', '#1565C0'),
        moduleShape: 'circle',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'circle',
      },
    ],
    [
      'Office WiFi',
      ['wifi', 'office', 'grey'],
      {
        primaryColor: '#37474F',
        backgroundColor: '#FFFFFF',
        moduleShape: 'thin-square',
        finderOuterShape: 'square',
        finderInnerShape: 'rounded',
        ...framed('box-bottom', 'OFFICE WI-FI'),
      },
    ],
    [
      'Home Network',
      ['wifi', 'home', 'warm'],
      {
        primaryColor: '#6B3E26',
        backgroundColor: '#FFF5EB',
        moduleShape: 'smooth-round',
        finderOuterShape: 'ticket',
        finderInnerShape: 'dot',
      },
    ],
    [
      'Coworking Connect',
      ['wifi', 'coworking', 'teal'],
      {
        primaryColor: '#00695C',
        backgroundColor: '#FFFFFF',
        moduleShape: 'row',
        finderOuterShape: 'rounded',
        finderInnerShape: 'dot',
        ...framed('scan-corners', 'CONNECT'),
      },
    ],
    [
      'Lounge WiFi',
      ['wifi', 'lounge', 'airport'],
      {
        primaryColor: '#1A237E',
        backgroundColor: '#F5F7FF',
        moduleShape: 'octagon',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'octagon',
        finderOuterColor: '#3949AB',
      },
    ],
  ],
  'real-estate': [
    [
      'Open House',
      ['property', 'open-house', 'navy'],
      {
        primaryColor: '#0B3954',
        backgroundColor: '#FFFFFF',
        moduleShape: 'square',
        finderOuterShape: 'shield',
        finderInnerShape: 'square',
        finderInnerColor: '#BF0603',
        ...framed('banner-top', 'OPEN HOUSE'),
      },
    ],
    [
      'For Sale Sign',
      ['property', 'for-sale', 'red'],
      {
        primaryColor: '#A4161A',
        backgroundColor: '#FFFFFF',
        moduleShape: 'rounded',
        finderOuterShape: 'square',
        finderInnerShape: 'square',
        ...framed('box-bottom', 'FOR SALE'),
      },
    ],
    [
      'Listing Slate',
      ['property', 'listing', 'modern'],
      {
        primaryColor: '#22223B',
        backgroundColor: '#F2E9E4',
        moduleShape: 'vertical',
        finderOuterShape: 'square',
        finderInnerShape: 'square',
        finderOuterColor: '#4A4E69',
      },
    ],
    [
      'Rental Keys',
      ['rental', 'keys', 'teal'],
      {
        primaryColor: '#073B4C',
        backgroundColor: '#FFFFFF',
        moduleShape: 'classy-rounded',
        finderOuterShape: 'rounded',
        finderInnerShape: 'square',
        finderInnerColor: '#0E7C70',
        ...framed('balloon-bottom', 'Book a viewing'),
      },
    ],
    [
      'Brick Terracotta',
      ['property', 'terracotta', 'warm'],
      {
        primaryColor: '#8C2F1B',
        backgroundColor: '#FFF7F0',
        moduleShape: 'square',
        finderOuterShape: 'cut-corner',
        finderInnerShape: 'cut-corner',
        moduleScale: 0.9,
      },
    ],
    [
      'Blueprint',
      ['architecture', 'plans', 'blue'],
      {
        primaryColor: '#1E3A5F',
        backgroundColor: '#EAF2FB',
        moduleShape: 'thin-square',
        finderOuterShape: 'dashed',
        finderInnerShape: 'square',
      },
    ],
    [
      'Garden Villa',
      ['property', 'garden', 'green'],
      {
        primaryColor: '#2F5233',
        backgroundColor: '#FBFFF5',
        moduleShape: 'leaf',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'flower',
      },
    ],
    [
      'Skyline Condo',
      ['condo', 'city', 'gradient'],
      {
        primaryColor: '#1B263B',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(270, '#1B263B', '#415A77'),
        moduleShape: 'column',
        finderOuterShape: 'square',
        finderInnerShape: 'rounded',
      },
    ],
  ],
  health: [
    [
      'Clinic Teal',
      ['clinic', 'medical', 'teal'],
      {
        primaryColor: '#00695C',
        backgroundColor: '#F4FFFD',
        moduleShape: 'plus',
        finderOuterShape: 'rounded',
        finderInnerShape: 'plus',
        ...framed('box-bottom', 'BOOK AN APPOINTMENT'),
      },
    ],
    [
      'Pharmacy Cross',
      ['pharmacy', 'green', 'cross'],
      {
        primaryColor: '#1B5E20',
        backgroundColor: '#FFFFFF',
        moduleShape: 'cross',
        finderOuterShape: 'plus',
        finderInnerShape: 'plus',
      },
    ],
    [
      'Dental Smile',
      ['dental', 'clean', 'blue'],
      {
        primaryColor: '#01579B',
        backgroundColor: '#F5FBFF',
        moduleShape: 'squircle',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'squircle',
        ...framed('banner-bottom', 'Scan to book'),
      },
    ],
    [
      'Wellness Spa',
      ['spa', 'wellness', 'sage'],
      {
        primaryColor: '#3E5622',
        backgroundColor: '#F7F9F2',
        moduleShape: 'leaf',
        finderOuterShape: 'flower',
        finderInnerShape: 'dot',
      },
    ],
    [
      'Yoga Lotus',
      ['yoga', 'mindful', 'purple'],
      {
        primaryColor: '#5B2A86',
        backgroundColor: '#FBF7FF',
        moduleShape: 'dots',
        finderOuterShape: 'flower',
        finderInnerShape: 'flower',
        ...framed('text-only', 'Join a class'),
      },
    ],
    [
      'Hospital Blue',
      ['hospital', 'care', 'blue'],
      {
        primaryColor: '#0D47A1',
        backgroundColor: '#FFFFFF',
        moduleShape: 'square',
        finderOuterShape: 'rounded',
        finderInnerShape: 'plus',
        finderInnerColor: '#C62828',
      },
    ],
    [
      'Pediatric Play',
      ['kids', 'pediatric', 'colourful'],
      {
        primaryColor: '#283044',
        backgroundColor: '#FFFFFF',
        moduleShape: 'rounded',
        finderOuterShape: 'squircle',
        finderInnerShape: 'heart',
        finderEyes: eyes(['#C0394B', '#C0394B'], ['#00798C', '#00798C'], ['#6A4C93', '#6A4C93']),
      },
    ],
    [
      'Vet Clinic',
      ['veterinary', 'pets', 'brown'],
      {
        primaryColor: '#5D4037',
        backgroundColor: '#FFFBF5',
        moduleShape: 'circle',
        finderOuterShape: 'rounded',
        finderInnerShape: 'heart',
        ...framed('balloon-bottom', 'Pet care info'),
      },
    ],
    [
      'Fitness Pulse',
      ['fitness', 'gym', 'energy'],
      {
        primaryColor: '#BF360C',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(0, '#8E1B0B', '#BF360C'),
        moduleShape: 'hexagon',
        finderOuterShape: 'octagon',
        finderInnerShape: 'square',
      },
    ],
  ],
  education: [
    [
      'Chalkboard',
      ['school', 'classroom', 'green'],
      {
        primaryColor: '#2E4034',
        backgroundColor: '#F4F1E8',
        moduleShape: 'rounded',
        finderOuterShape: 'rounded',
        finderInnerShape: 'square',
        ...framed('box-bottom', 'CLASS NOTES'),
      },
    ],
    [
      'Campus Crimson',
      ['university', 'crimson', 'collegiate'],
      {
        primaryColor: '#8B0000',
        backgroundColor: '#FFFFFF',
        moduleShape: 'square',
        finderOuterShape: 'shield',
        finderInnerShape: 'shield',
        finderInnerColor: '#1C1C1C',
      },
    ],
    [
      'Library Stamp',
      ['library', 'books', 'sepia'],
      {
        primaryColor: '#3E2723',
        backgroundColor: '#FBF3E4',
        moduleShape: 'square',
        finderOuterShape: 'dots',
        finderInnerShape: 'square',
        ...framed('text-only', 'Borrow this book'),
      },
    ],
    [
      'Science Lab',
      ['science', 'lab', 'hexagon'],
      {
        primaryColor: '#006064',
        backgroundColor: '#FFFFFF',
        moduleShape: 'hexagon',
        finderOuterShape: 'octagon',
        finderInnerShape: 'octagon',
        finderOuterColor: '#00838F',
      },
    ],
    [
      'Crayon Box',
      ['kindergarten', 'kids', 'colourful'],
      {
        primaryColor: '#1E2A3A',
        backgroundColor: '#FFFEF5',
        moduleShape: 'squircle',
        finderOuterShape: 'rounded',
        finderInnerShape: 'dot',
        finderEyes: eyes(['#C1121F', '#C1121F'], ['#1565C0', '#1565C0'], ['#2E7D32', '#2E7D32']),
      },
    ],
    [
      'Graduation Day',
      ['graduation', 'navy', 'gold'],
      {
        primaryColor: '#1A237E',
        backgroundColor: '#FFFDF5',
        moduleShape: 'classy',
        finderOuterShape: 'square',
        finderInnerShape: 'star',
        finderInnerColor: '#7A5C12',
        ...framed('banner-top', 'CONGRATS, GRADS!'),
      },
    ],
    [
      'Exam Sheet',
      ['exam', 'quiz', 'grey'],
      {
        primaryColor: '#263238',
        backgroundColor: '#FFFFFF',
        moduleShape: 'thin-square',
        finderOuterShape: 'rounded',
        finderInnerShape: 'square',
      },
    ],
    [
      'Language Club',
      ['language', 'club', 'speech'],
      {
        primaryColor: '#4527A0',
        backgroundColor: '#F8F5FF',
        moduleShape: 'extra-rounded',
        finderOuterShape: 'classy',
        finderInnerShape: 'rounded',
        ...framed('balloon-top', 'Say hello!'),
      },
    ],
  ],
  holiday: [
    [
      'Christmas Pine',
      ['christmas', 'green', 'red'],
      {
        primaryColor: '#1B5E20',
        backgroundColor: '#FFFFFF',
        moduleShape: 'star',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'star',
        finderInnerColor: '#B71C1C',
        ...framed('box-bottom', 'MERRY CHRISTMAS', '#B71C1C'),
      },
    ],
    [
      'Candy Cane',
      ['christmas', 'stripes', 'red'],
      {
        primaryColor: '#B71C1C',
        backgroundColor: '#FFFFFF',
        moduleShape: 'row',
        finderOuterShape: 'rounded',
        finderInnerShape: 'rounded',
        finderInnerColor: '#1B5E20',
      },
    ],
    [
      'Halloween Pumpkin',
      ['halloween', 'orange', 'spooky'],
      {
        primaryColor: '#1A1A1A',
        backgroundColor: '#F8A145',
        moduleShape: 'kite',
        finderOuterShape: 'drop',
        finderInnerShape: 'dot',
        ...framed('banner-bottom', 'TRICK OR TREAT'),
      },
    ],
    [
      'Valentine Hearts',
      ['valentine', 'love', 'red'],
      {
        primaryColor: '#9D0B28',
        backgroundColor: '#FFF0F3',
        moduleShape: 'heart',
        finderOuterShape: 'squircle',
        finderInnerShape: 'heart',
        finderOuterColor: '#C9184A',
        ...band('LOVE', '#FFF0F3', '#9D0B28'),
      },
    ],
    [
      'Easter Pastel',
      ['easter', 'spring', 'pastel'],
      {
        primaryColor: '#4A148C',
        backgroundColor: '#FFFDE7',
        backgroundGradient: linear(135, '#FFFDE7', '#E8F5E9', '#F3E5F5'),
        moduleShape: 'dots',
        finderOuterShape: 'drop',
        finderInnerShape: 'dot',
      },
    ],
    [
      'Hanukkah Blue',
      ['hanukkah', 'blue', 'festive'],
      {
        primaryColor: '#0D3B8C',
        backgroundColor: '#F5F9FF',
        moduleShape: 'diamond',
        finderOuterShape: 'plus',
        finderInnerShape: 'star',
        finderInnerColor: '#2A63BA',
      },
    ],
    [
      'Diwali Lights',
      ['diwali', 'festival', 'gold'],
      {
        primaryColor: '#6A1B9A',
        backgroundColor: '#FFF8E1',
        moduleShape: 'circle',
        finderOuterShape: 'flower',
        finderInnerShape: 'dot',
        finderOuterColor: '#8A4B08',
        finderInnerColor: '#B23A03',
      },
    ],
    [
      'Lunar New Year',
      ['lunar-new-year', 'red', 'gold'],
      {
        primaryColor: '#9B1B30',
        backgroundColor: '#FFE8A3',
        moduleShape: 'rounded',
        finderOuterShape: 'octagon',
        finderInnerShape: 'flower',
        ...framed('box-top', 'GOOD FORTUNE'),
      },
    ],
    [
      'Shamrock Day',
      ['st-patricks', 'green', 'clover'],
      {
        primaryColor: '#1E5631',
        backgroundColor: '#F0FFF0',
        moduleShape: 'leaf',
        finderOuterShape: 'left-leaf',
        finderInnerShape: 'left-leaf',
        finderInnerColor: '#7A5C12',
      },
    ],
    [
      'New Year Fireworks',
      ['new-year', 'fireworks', 'gradient'],
      {
        primaryColor: '#1A237E',
        backgroundColor: '#FFFFFF',
        foregroundGradient: radial('#6A1B9A', '#1A237E'),
        moduleShape: 'star',
        finderOuterShape: 'dots',
        finderInnerShape: 'star',
      },
    ],
  ],
  minimal: [
    [
      'Pure Black',
      ['minimal', 'black', 'classic'],
      {
        primaryColor: '#000000',
        backgroundColor: '#FFFFFF',
        moduleShape: 'square',
        finderOuterShape: 'rounded',
        finderInnerShape: 'rounded',
      },
    ],
    [
      'Soft Graphite',
      ['minimal', 'grey', 'soft'],
      {
        primaryColor: '#3D3D3D',
        backgroundColor: '#FAFAFA',
        moduleShape: 'rounded',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'extra-rounded',
      },
    ],
    [
      'Ink Dots',
      ['minimal', 'dots', 'airy'],
      {
        primaryColor: '#111111',
        backgroundColor: '#FFFFFF',
        moduleShape: 'dots',
        finderOuterShape: 'circle',
        finderInnerShape: 'squircle',
        moduleScale: 0.8,
      },
    ],
    [
      'Fine Line',
      ['minimal', 'thin', 'light'],
      {
        primaryColor: '#1C1C1C',
        backgroundColor: '#FFFFFF',
        moduleShape: 'thin-square',
        finderOuterShape: 'square',
        finderInnerShape: 'dot',
      },
    ],
    [
      'Horizon Lines',
      ['minimal', 'lines', 'horizontal'],
      {
        primaryColor: '#202020',
        backgroundColor: '#FFFFFF',
        moduleShape: 'horizontal',
        finderOuterShape: 'extra-rounded',
        finderInnerShape: 'rounded',
      },
    ],
    [
      'Vertical Rhythm',
      ['minimal', 'lines', 'vertical'],
      {
        primaryColor: '#2A2A2A',
        backgroundColor: '#F7F7F7',
        moduleShape: 'vertical',
        finderOuterShape: 'circle',
        finderInnerShape: 'circle',
      },
    ],
    [
      'Paper Note',
      ['minimal', 'paper', 'warm'],
      {
        primaryColor: '#222222',
        backgroundColor: '#FAF7F0',
        moduleShape: 'smooth-round',
        finderOuterShape: 'rounded',
        finderInnerShape: 'rounded',
      },
    ],
    [
      'Mono Kite',
      ['minimal', 'geometric', 'black'],
      {
        primaryColor: '#151515',
        backgroundColor: '#FFFFFF',
        moduleShape: 'left-diamond',
        finderOuterShape: 'left-leaf',
        finderInnerShape: 'left-leaf',
      },
    ],
    [
      'Quiet Squircle',
      ['minimal', 'soft', 'grey'],
      {
        primaryColor: '#33363A',
        backgroundColor: '#FFFFFF',
        moduleShape: 'squircle',
        finderOuterShape: 'squircle',
        finderInnerShape: 'dot',
        moduleScale: 0.9,
      },
    ],
    [
      'Swiss Grid',
      ['minimal', 'swiss', 'red'],
      {
        primaryColor: '#101010',
        backgroundColor: '#FFFFFF',
        moduleShape: 'square',
        finderOuterShape: 'square',
        finderInnerShape: 'plus',
        finderInnerColor: '#D00000',
        moduleScale: 0.85,
      },
    ],
  ],
  luxury: [
    [
      'Gold Leaf',
      ['luxury', 'gold', 'ivory'],
      {
        primaryColor: '#6B4F10',
        backgroundColor: '#FFFBEF',
        foregroundGradient: linear(45, '#5C430D', '#7A5C12', '#5C430D'),
        moduleShape: 'classy-rounded',
        finderOuterShape: 'classy',
        finderInnerShape: 'classy',
      },
    ],
    [
      'Black Tie',
      ['luxury', 'black', 'gold'],
      {
        primaryColor: '#0A0A0A',
        backgroundColor: '#FFFFFF',
        moduleShape: 'classy',
        finderOuterShape: 'classy',
        finderInnerShape: 'dot',
        finderOuterColor: '#7A5C12',
        finderInnerColor: '#0A0A0A',
        ...framed('text-only', 'By invitation'),
      },
    ],
    [
      'Emerald Estate',
      ['luxury', 'emerald', 'gradient'],
      {
        primaryColor: '#014D3A',
        backgroundColor: '#FBFFFD',
        foregroundGradient: radial('#0B6E4F', '#014D3A'),
        moduleShape: 'diamond',
        finderOuterShape: 'shield',
        finderInnerShape: 'diamond',
      },
    ],
    [
      'Royal Plum',
      ['luxury', 'plum', 'royal'],
      {
        primaryColor: '#4B0F4F',
        backgroundColor: '#FFF9FD',
        moduleShape: 'rounded',
        finderOuterShape: 'flower',
        finderInnerShape: 'star',
        finderInnerColor: '#7A5C12',
      },
    ],
    [
      'Champagne Toast',
      ['luxury', 'champagne', 'celebration'],
      {
        primaryColor: '#4A3B14',
        backgroundColor: '#FFF8E7',
        backgroundGradient: linear(135, '#FFF8E7', '#F3E5C0'),
        moduleShape: 'dots',
        finderOuterShape: 'classy',
        finderInnerShape: 'classy',
        moduleScale: 0.9,
      },
    ],
    [
      'Marble Hall',
      ['luxury', 'marble', 'grey'],
      {
        primaryColor: '#2B2B2B',
        backgroundColor: '#FFFFFF',
        backgroundGradient: linear(60, '#FFFFFF', '#E6E6E6', '#F7F7F7', '#E9E9E9'),
        moduleShape: 'square',
        finderOuterShape: 'octagon',
        finderInnerShape: 'diamond',
      },
    ],
    [
      'Sapphire Night',
      ['luxury', 'sapphire', 'blue'],
      {
        primaryColor: '#0F2C59',
        backgroundColor: '#FFFFFF',
        foregroundGradient: radial('#1B3F7A', '#0F2C59'),
        moduleShape: 'smooth-sharp',
        finderOuterShape: 'classy',
        finderInnerShape: 'diamond',
      },
    ],
    [
      'Rose Gold',
      ['luxury', 'rose', 'feminine'],
      {
        primaryColor: '#7D3C3C',
        backgroundColor: '#FFF5F0',
        foregroundGradient: linear(45, '#7D3C3C', '#8C4A3A'),
        moduleShape: 'extra-rounded',
        finderOuterShape: 'flower',
        finderInnerShape: 'rounded',
      },
    ],
    [
      'Onyx Diamond',
      ['luxury', 'diamond', 'black'],
      {
        primaryColor: '#0B0B0B',
        backgroundColor: '#FAFAFA',
        moduleShape: 'diamond',
        finderOuterShape: 'rounded',
        finderInnerShape: 'diamond',
        moduleScale: 0.95,
      },
    ],
  ],
  tech: [
    [
      'Circuit Board',
      ['tech', 'circuit', 'green'],
      {
        primaryColor: '#0B3D2E',
        backgroundColor: '#F2FFF8',
        moduleShape: 'smooth-sharp',
        finderOuterShape: 'cut-corner',
        finderInnerShape: 'square',
        finderOuterColor: '#146C43',
      },
    ],
    [
      'Neon Violet',
      ['tech', 'neon', 'gradient'],
      {
        primaryColor: '#3C096C',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(45, '#3C096C', '#7B2CBF'),
        finderInnerGradient: radial('#7B2CBF', '#3C096C'),
        moduleShape: 'dots',
        finderOuterShape: 'octagon',
        finderInnerShape: 'dot',
      },
    ],
    [
      'Startup Launch',
      ['startup', 'app', 'gradient'],
      {
        primaryColor: '#0052A3',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(135, '#0052A3', '#5B00D6'),
        moduleShape: 'rounded',
        finderOuterShape: 'drop',
        finderInnerShape: 'dot',
        ...framed('box-bottom', 'GET THE APP', '#2D2A9E'),
      },
    ],
    [
      'Terminal Green',
      ['developer', 'terminal', 'code'],
      {
        primaryColor: '#0B3D0B',
        backgroundColor: '#F3FFF3',
        moduleShape: 'square',
        finderOuterShape: 'square',
        finderInnerShape: 'dot',
        moduleScale: 0.8,
      },
    ],
    [
      'Pixel Arcade',
      ['gaming', 'pixel', 'retro'],
      {
        primaryColor: '#2D1E5F',
        backgroundColor: '#FFFFFF',
        moduleShape: 'mosaic',
        finderOuterShape: 'plus',
        finderInnerShape: 'square',
        finderEyes: eyes(['#2D1E5F', '#C1121F'], ['#2D1E5F', '#1565C0'], ['#2D1E5F', '#2E7D32']),
        ...band('PLAY', '#FFFFFF', '#2D1E5F'),
      },
    ],
    [
      'Hex Lab',
      ['tech', 'hexagon', 'science'],
      {
        primaryColor: '#1A365D',
        backgroundColor: '#FFFFFF',
        moduleShape: 'hexagon',
        finderOuterShape: 'circle',
        finderInnerShape: 'octagon',
      },
    ],
    [
      'Cyber Grid',
      ['cyber', 'security', 'teal'],
      {
        primaryColor: '#004D61',
        backgroundColor: '#F0FCFF',
        moduleShape: 'octagon',
        finderOuterShape: 'cut-corner',
        finderInnerShape: 'cut-corner',
        ...framed('scan-corners', 'SECURE LOGIN'),
      },
    ],
    [
      'Cloud Sync',
      ['cloud', 'saas', 'blue'],
      {
        primaryColor: '#1E40AF',
        backgroundColor: '#F8FAFF',
        moduleShape: 'smooth-round',
        finderOuterShape: 'squircle',
        finderInnerShape: 'rounded',
        ...framed('balloon-bottom', 'Open dashboard'),
      },
    ],
    [
      'Data Stream',
      ['data', 'ai', 'lines'],
      {
        primaryColor: '#312E81',
        backgroundColor: '#FFFFFF',
        foregroundGradient: linear(90, '#312E81', '#6D28D9'),
        moduleShape: 'column',
        finderOuterShape: 'rounded',
        finderInnerShape: 'square',
      },
    ],
  ],
};

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const entries = Object.entries(CATALOGUE).flatMap(([category, list]) =>
  list.map(([name, tags, config]) => ({ id: slug(name), name, category, tags, config })),
);

/** The geometry each shape name draws, so two names for one drawing count as the same shape. */
const grid = gridFromSymbol(encode('https://example.com/t/shape-key', { ecc: 'M' }));
const moduleGeometry = (shape: ModuleShape) =>
  modulesPath(grid, () => true, { shape, scale: 1, variation: 0, seed: 1 });
const seenShapes = new Map<string, string>();
const problems: string[] = [];
for (const e of entries) {
  const key = [
    moduleGeometry(e.config.moduleShape),
    finderOuterPath(e.config.finderOuterShape, 0, 0, 0),
    finderInnerPath(e.config.finderInnerShape, 0, 0, 0),
  ].join('|');
  const first = seenShapes.get(key);
  if (first) problems.push(`${e.id} draws the same module and eye shapes as ${first}`);
  else seenShapes.set(key, e.id);
}
// Each template alone first, so one run reports every bad design rather than the first.
for (const e of entries) {
  try {
    loadCatalogue([JSON.parse(JSON.stringify(e))]);
  } catch (err) {
    problems.push((err as Error).message);
  }
}
if (problems.length) throw new Error(problems.join('\n'));

loadCatalogue(JSON.parse(JSON.stringify(entries)));
const out = fileURLToPath(new URL('../../src/templates/catalogue.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(entries, null, 2)}\n`);
console.log(`wrote ${entries.length} templates in ${Object.keys(CATALOGUE).length} categories → ${out}`);
