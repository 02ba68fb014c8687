/**
 * Colour words a model writes instead of hex: the CSS named colours, plus the design-brief words
 * ("champagne", "rose gold") that prompts use and CSS lacks. Keys are lower-case without spaces.
 */
const NAMED: Readonly<Record<string, string>> = {
  aliceblue: '#f0f8ff',
  antiquewhite: '#faebd7',
  aqua: '#00ffff',
  aquamarine: '#7fffd4',
  azure: '#f0ffff',
  beige: '#f5f5dc',
  bisque: '#ffe4c4',
  black: '#000000',
  blanchedalmond: '#ffebcd',
  blue: '#0000ff',
  blueviolet: '#8a2be2',
  brown: '#a52a2a',
  burlywood: '#deb887',
  cadetblue: '#5f9ea0',
  chartreuse: '#7fff00',
  chocolate: '#d2691e',
  coral: '#ff7f50',
  cornflowerblue: '#6495ed',
  cornsilk: '#fff8dc',
  crimson: '#dc143c',
  cyan: '#00ffff',
  darkblue: '#00008b',
  darkcyan: '#008b8b',
  darkgoldenrod: '#b8860b',
  darkgray: '#a9a9a9',
  darkgreen: '#006400',
  darkgrey: '#a9a9a9',
  darkkhaki: '#bdb76b',
  darkmagenta: '#8b008b',
  darkolivegreen: '#556b2f',
  darkorange: '#ff8c00',
  darkorchid: '#9932cc',
  darkred: '#8b0000',
  darksalmon: '#e9967a',
  darkseagreen: '#8fbc8f',
  darkslateblue: '#483d8b',
  darkslategray: '#2f4f4f',
  darkslategrey: '#2f4f4f',
  darkturquoise: '#00ced1',
  darkviolet: '#9400d3',
  deeppink: '#ff1493',
  deepskyblue: '#00bfff',
  dimgray: '#696969',
  dimgrey: '#696969',
  dodgerblue: '#1e90ff',
  firebrick: '#b22222',
  floralwhite: '#fffaf0',
  forestgreen: '#228b22',
  fuchsia: '#ff00ff',
  gainsboro: '#dcdcdc',
  ghostwhite: '#f8f8ff',
  gold: '#ffd700',
  goldenrod: '#daa520',
  gray: '#808080',
  green: '#008000',
  greenyellow: '#adff2f',
  grey: '#808080',
  honeydew: '#f0fff0',
  hotpink: '#ff69b4',
  indianred: '#cd5c5c',
  indigo: '#4b0082',
  ivory: '#fffff0',
  khaki: '#f0e68c',
  lavender: '#e6e6fa',
  lavenderblush: '#fff0f5',
  lawngreen: '#7cfc00',
  lemonchiffon: '#fffacd',
  lightblue: '#add8e6',
  lightcoral: '#f08080',
  lightcyan: '#e0ffff',
  lightgoldenrodyellow: '#fafad2',
  lightgray: '#d3d3d3',
  lightgreen: '#90ee90',
  lightgrey: '#d3d3d3',
  lightpink: '#ffb6c1',
  lightsalmon: '#ffa07a',
  lightseagreen: '#20b2aa',
  lightskyblue: '#87cefa',
  lightslategray: '#778899',
  lightslategrey: '#778899',
  lightsteelblue: '#b0c4de',
  lightyellow: '#ffffe0',
  lime: '#00ff00',
  limegreen: '#32cd32',
  linen: '#faf0e6',
  magenta: '#ff00ff',
  maroon: '#800000',
  mediumaquamarine: '#66cdaa',
  mediumblue: '#0000cd',
  mediumorchid: '#ba55d3',
  mediumpurple: '#9370db',
  mediumseagreen: '#3cb371',
  mediumslateblue: '#7b68ee',
  mediumspringgreen: '#00fa9a',
  mediumturquoise: '#48d1cc',
  mediumvioletred: '#c71585',
  midnightblue: '#191970',
  mintcream: '#f5fffa',
  mistyrose: '#ffe4e1',
  moccasin: '#ffe4b5',
  navajowhite: '#ffdead',
  navy: '#000080',
  oldlace: '#fdf5e6',
  olive: '#808000',
  olivedrab: '#6b8e23',
  orange: '#ffa500',
  orangered: '#ff4500',
  orchid: '#da70d6',
  palegoldenrod: '#eee8aa',
  palegreen: '#98fb98',
  paleturquoise: '#afeeee',
  palevioletred: '#db7093',
  papayawhip: '#ffefd5',
  peachpuff: '#ffdab9',
  peru: '#cd853f',
  pink: '#ffc0cb',
  plum: '#dda0dd',
  powderblue: '#b0e0e6',
  purple: '#800080',
  rebeccapurple: '#663399',
  red: '#ff0000',
  rosybrown: '#bc8f8f',
  royalblue: '#4169e1',
  saddlebrown: '#8b4513',
  salmon: '#fa8072',
  sandybrown: '#f4a460',
  seagreen: '#2e8b57',
  seashell: '#fff5ee',
  sienna: '#a0522d',
  silver: '#c0c0c0',
  skyblue: '#87ceeb',
  slateblue: '#6a5acd',
  slategray: '#708090',
  slategrey: '#708090',
  snow: '#fffafa',
  springgreen: '#00ff7f',
  steelblue: '#4682b4',
  tan: '#d2b48c',
  teal: '#008080',
  thistle: '#d8bfd8',
  tomato: '#ff6347',
  turquoise: '#40e0d0',
  violet: '#ee82ee',
  wheat: '#f5deb3',
  white: '#ffffff',
  whitesmoke: '#f5f5f5',
  yellow: '#ffff00',
  yellowgreen: '#9acd32',
  transparent: '#00000000',
  // Design vocabulary outside CSS.
  bronze: '#cd7f32',
  burgundy: '#800020',
  champagne: '#f7e7ce',
  charcoal: '#36454f',
  copper: '#b87333',
  cream: '#fffdd0',
  emerald: '#50c878',
  mint: '#98ff98',
  navyblue: '#000080',
  offwhite: '#faf9f6',
  rosegold: '#b76e79',
  sage: '#9caf88',
  terracotta: '#e2725b',
};

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * A hex colour (`#rgb`, `#rrggbb` or `#rrggbbaa`) for what a model wrote: hex with or without `#`,
 * `#rgba` (not allowed by the API, so expanded), `rgb()/rgba()`, `hsl()/hsla()` or a colour name.
 * Returns undefined when the text is no colour we know.
 */
export function toHexColor(text: string): string | undefined {
  const s = text.trim();
  const hex = HEX.exec(s);
  if (hex) {
    const digits = hex[1];
    return digits.length === 4 ? `#${[...digits].map((d) => d + d).join('')}` : `#${digits}`;
  }
  const fn = /^(rgba?|hsla?)\(([^)]*)\)$/i.exec(s);
  if (fn) return fromFunction(fn[1].toLowerCase(), fn[2]);
  return NAMED[s.toLowerCase().replace(/[\s_-]+/g, '')];
}

function fromFunction(name: string, args: string): string | undefined {
  const parts = args
    .trim()
    .split(/\s*[,/]\s*|\s+/)
    .filter((p) => p !== '');
  if (parts.length < 3 || parts.length > 4) return undefined;
  const alpha = parts[3] === undefined ? 1 : fraction(parts[3], 1);
  if (alpha === undefined) return undefined;
  let rgb: number[] | undefined;
  if (name.startsWith('rgb')) {
    const channels = parts.slice(0, 3).map((p) => fraction(p, 255));
    if (channels.some((c) => c === undefined)) return undefined;
    rgb = (channels as number[]).map((c) => c * 255);
  } else {
    const h = Number(parts[0].replace(/deg$/i, ''));
    const sat = fraction(parts[1], 100);
    const light = fraction(parts[2], 100);
    if (!Number.isFinite(h) || sat === undefined || light === undefined) return undefined;
    rgb = hslToRgb(((h % 360) + 360) % 360, sat, light);
  }
  const byte = (v: number): string =>
    Math.round(Math.min(255, Math.max(0, v)))
      .toString(16)
      .padStart(2, '0');
  return `#${rgb.map(byte).join('')}${alpha < 1 ? byte(alpha * 255) : ''}`;
}

/** A channel as 0–1: "50%" is a percentage, a bare number is out of `scale`. */
function fraction(text: string, scale: number): number | undefined {
  const pct = text.endsWith('%');
  const n = Number(pct ? text.slice(0, -1) : text);
  if (!Number.isFinite(n)) return undefined;
  return Math.min(1, Math.max(0, pct ? n / 100 : n / scale));
}

function hslToRgb(h: number, s: number, l: number): number[] {
  const k = (n: number): number => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)].map((v) => v * 255);
}
