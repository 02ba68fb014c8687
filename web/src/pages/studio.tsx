import { useCallback, useMemo, useState } from 'preact/hooks';
import { Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { SaveDesign } from '../components/save-design.js';
import { AiBox } from '../studio/ai.js';
import { type ContentState, ContentPanel } from '../studio/content.js';
import { adoptDesign, type Design, designProblems, START_DESIGN } from '../studio/design.js';
import { Export } from '../studio/export.js';
import {
  ColourField,
  EyesField,
  type FieldProps,
  GradientField,
  ImageField,
  Picker,
  SchemaField,
} from '../studio/fields.js';
import { Preview } from '../studio/preview.js';
import { PrintCheck } from '../studio/print-check.js';
import { TemplateGallery } from '../studio/templates.js';

/** Every design field, in groups a person looks for: each group folds away. */
function DesignPanel(props: FieldProps) {
  const group = (title: string, open: boolean, body: preact.ComponentChildren) => (
    <details class="group" open={open}>
      <summary>{title}</summary>
      <div>{body}</div>
    </details>
  );
  return (
    <section class="card" aria-labelledby="design-title">
      <h2 id="design-title">3. Design</h2>
      {group(
        'Shapes',
        true,
        <>
          <Picker {...props} field="moduleShape" label="Module shape" />
          <div class="row">
            <SchemaField {...props} path="moduleScale" label="Module size" />
            <SchemaField {...props} path="moduleSizeVariation" label="Size variation" />
            <SchemaField {...props} path="qrShapeRadius" label="Rounding of the whole code" />
          </div>
        </>,
      )}
      {group(
        'Colours and gradients',
        true,
        <>
          <div class="row">
            <ColourField {...props} path="primaryColor" label="Code colour" />
            <ColourField {...props} path="backgroundColor" label="Background colour" />
          </div>
          <GradientField {...props} path="foregroundGradient" label="Code gradient" />
          <GradientField {...props} path="backgroundGradient" label="Background gradient" />
          <div class="row">
            <ColourField {...props} path="alignmentColor" label="Alignment pattern colour" />
            <ColourField {...props} path="timingColor" label="Timing pattern colour" />
          </div>
        </>,
      )}
      {group(
        'Eyes',
        false,
        <>
          <Picker {...props} field="finderOuterShape" label="Eye ring shape" />
          <Picker {...props} field="finderInnerShape" label="Eye centre shape" />
          <div class="row">
            <ColourField {...props} path="finderOuterColor" label="Ring colour" />
            <ColourField {...props} path="finderInnerColor" label="Centre colour" />
          </div>
          <GradientField {...props} path="finderOuterGradient" label="Ring gradient" />
          <GradientField {...props} path="finderInnerGradient" label="Centre gradient" />
          <EyesField {...props} />
        </>,
      )}
      {group(
        'Logo',
        false,
        <>
          <ImageField {...props} path="logoBase64" label="Logo" />
          <div class="row">
            <SchemaField {...props} path="logoSizePercent" label="Logo size (%)" />
            <SchemaField {...props} path="logoPaddingPercent" label="Space around the logo (%)" />
            <SchemaField {...props} path="logoPlateShape" label="Plate behind the logo" />
            <ColourField {...props} path="logoPlateColor" label="Plate colour" />
          </div>
        </>,
      )}
      {group(
        'Background image',
        false,
        <>
          <ImageField {...props} path="backgroundImageBase64" label="Background image" />
          <div class="row">
            <SchemaField {...props} path="backgroundImageOpacity" label="Opacity" />
            <SchemaField {...props} path="backgroundImageFit" label="Fit" />
          </div>
        </>,
      )}
      {group(
        'Frame and caption',
        false,
        <>
          <Picker {...props} field="frameStyle" label="Frame" />
          <SchemaField {...props} path="ctaText" label="Caption" />
          <div class="row">
            <SchemaField {...props} path="fontFamily" label="Typeface" />
            <ColourField {...props} path="ctaTextColor" label="Caption colour" />
            <ColourField {...props} path="frameColor" label="Frame colour" />
            <ColourField {...props} path="frameTextColor" label="Frame text colour" />
          </div>
        </>,
      )}
      {group(
        'Centre text',
        false,
        <>
          <SchemaField {...props} path="centerText.text" label="Text across the centre" />
          <div class="row">
            <ColourField {...props} path="centerText.color" label="Text colour" />
            <ColourField {...props} path="centerText.backgroundColor" label="Band colour" />
            <SchemaField {...props} path="centerText.fontSize" label="Font size (px)" />
          </div>
        </>,
      )}
      {group(
        'Size, format and scanning',
        false,
        <div class="row">
          <SchemaField {...props} path="outputWidth" label="Width (px)" />
          <SchemaField {...props} path="fileFormat" label="Format of the copied design" />
          <SchemaField {...props} path="eccLevel" label="Error correction" />
          <SchemaField {...props} path="quietZone" label="Quiet zone (modules)" />
          <SchemaField {...props} path="minVersion" label="Smallest version" />
          <SchemaField {...props} path="strictScannability" label="Fix problems automatically" />
        </div>,
      )}
    </section>
  );
}

function Studio() {
  const [content, setContent] = useState<ContentState>({ content: undefined, busy: true });
  const [design, setDesign] = useState<Design>(START_DESIGN);
  const [serverError, setServerError] = useState<{ field: string; message: string }>();
  const [loaded, setLoaded] = useState<string>();

  const problems = useMemo(() => {
    const p = designProblems(content.content ?? 'x', design);
    if (serverError && !p.has(serverError.field)) p.set(serverError.field, serverError.message);
    return p;
  }, [content.content, design, serverError]);
  const onChange = useCallback((d: Design) => {
    setServerError(undefined);
    setDesign(d);
  }, []);
  const onFieldError = useCallback(
    (field: string | undefined, message: string | undefined) =>
      setServerError(field && message ? { field, message } : undefined),
    [],
  );
  const blocked =
    content.busy || content.content === undefined
      ? 'Waiting for valid content.'
      : [...problems.keys()].some((f) => f !== serverError?.field)
        ? 'A design field needs attention.'
        : undefined;
  const props = { design, onChange, problems };

  return (
    <>
      <h1>Studio</h1>
      <p>
        Design a QR code, see it verified as you go, and download it. No account needed.{' '}
        <a href="#preview">Jump to the preview</a>
      </p>
      <div class="studio">
        <div>
          <ContentPanel onContent={setContent} />
          <TemplateGallery
            onDesign={(d, name) => {
              onChange(adoptDesign(design, d));
              setLoaded(`Template “${name}” loaded: every field below can still be changed.`);
            }}
          />
          <div role="status" aria-live="polite">
            {loaded && <Notice kind="info">{loaded}</Notice>}
          </div>
          <DesignPanel {...props} />
          <AiBox
            content={content.content}
            design={design}
            onDesign={(d) => {
              onChange(adoptDesign(design, d));
              setLoaded('The AI’s design is loaded: every field below can still be changed.');
            }}
          />
          <SaveDesign
            design={design}
            onOpen={(d, name) => {
              // The whole saved design, its pictures and size included: it is the person's own.
              onChange(d);
              setLoaded(`Saved design “${name}” loaded: every field below can still be changed.`);
            }}
          />
        </div>
        <div class="preview-pane">
          <Preview content={content.content} design={design} blocked={blocked} onFieldError={onFieldError} />
          <PrintCheck content={blocked === undefined ? content.content : undefined} design={design} />
          <Export content={blocked === undefined ? content.content : undefined} design={design} />
        </div>
      </div>
    </>
  );
}

mountPage('/studio', <Studio />);
