/**
 * The Studio's rules that need no browser: how soon a change asks for its preview (web/src/studio/
 * use-preview.ts) from its pace and the site's RateLimit header, and how the engine's field paths become
 * the page's labels (web/src/studio/labels.ts), the colours left empty included.
 */
import { describe, expect, it } from 'vitest';
import { colourDefault, fieldName, hintOf, inPageWords, LABELS } from '../../web/src/studio/labels.js';
import { budgetOf, TYPING_PAUSE_MS, waitFor } from '../../web/src/studio/use-preview.js';

describe('how soon a preview is asked for', () => {
  it('a choice at once, typing after the pause, whatever calls are left while there are plenty', () => {
    expect(waitFor('now', undefined)).toBe(0);
    expect(waitFor('typing', undefined)).toBe(TYPING_PAUSE_MS);
    const plenty = budgetOf('"studio";r=29;t=58');
    expect(plenty).toEqual({ remaining: 29, resetSec: 58 });
    expect(waitFor('now', plenty)).toBe(0);
    expect(waitFor('typing', plenty)).toBe(TYPING_PAUSE_MS);
  });

  it('with few calls left, the rest of the minute is spread over them, five kept for downloads', () => {
    // 10 left, 5 kept: 5 previews in the 40 s left, one every 8 s, a choice as much as typing.
    expect(waitFor('now', budgetOf('"studio";r=10;t=40'))).toBe(8000);
    expect(waitFor('typing', budgetOf('"studio";r=10;t=40'))).toBe(8000);
    // None to spare: the preview waits for the window's end.
    expect(waitFor('now', budgetOf('"studio";r=5;t=12'))).toBe(12_000);
    expect(waitFor('now', budgetOf('"studio";r=0;t=3'))).toBe(3000);
    expect(budgetOf(null)).toBeUndefined();
  });
});

describe('field paths in the page’s words', () => {
  it('names each field as its label, with the group where a label is shared', () => {
    expect(inPageWords('primaryColor must be a hex colour: #RGB, #RRGGBB or #RRGGBBAA.')).toBe(
      '“Code colour” must be a hex colour: #RGB, #RRGGBB or #RRGGBBAA.',
    );
    expect(inPageWords('centerText.color has 1.30:1 contrast with the band.')).toBe(
      '“Text colour of the centre text” has 1.30:1 contrast with the band.',
    );
    expect(fieldName('finderEyes.2.outerColor')).toBe('Ring colour of the bottom-left eye');
    expect(fieldName('foregroundGradient.stops.1.color')).toBe('To colour of the code gradient');
    // Words that are not fields stay; API talk in backticks loses them.
    expect(inPageWords('the content is reported in `corrections`')).toBe('the content is reported in corrections');
    expect(hintOf('finderOuterColor')).toBe('Colour of the finder rings. Default “Code colour”.');
    expect(Object.keys(LABELS).every((path) => !inPageWords(`${path} is wrong`).includes(path))).toBe(true);
  });

  it('an empty colour says what it stands for in this design', () => {
    expect(colourDefault({}, 'primaryColor')).toEqual({ colour: '#000000', words: 'Default #000000' });
    expect(colourDefault({}, 'backgroundColor')).toEqual({ colour: '#FFFFFF', words: 'Default #FFFFFF' });
    const design = { primaryColor: '#5A1E0F', backgroundColor: '#F7F3E8' };
    expect(colourDefault(design, 'frameColor')).toEqual({ colour: '#5A1E0F', words: 'Same as Code colour, #5A1E0F' });
    expect(colourDefault(design, 'logoPlateColor').words).toBe('Same as Background colour, #F7F3E8');
    expect(colourDefault(design, 'finderEyes.1.innerColor').words).toBe('Same as Centre colour, #5A1E0F');
    expect(colourDefault({ ...design, finderInnerColor: '#112233' }, 'finderEyes.1.innerColor').words).toBe(
      'Same as Centre colour, #112233',
    );
    expect(colourDefault(design, 'frameTextColor').words).toBe('Chosen by the frame');
  });
});
