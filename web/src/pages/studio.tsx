import { useCallback, useMemo, useState } from 'preact/hooks';
import { Notice } from '../components/field.js';
import { mountPage } from '../components/layout.js';
import { SaveDesign } from '../components/save-design.js';
import { AiBox } from '../studio/ai.js';
import { type ContentState, ContentPanel } from '../studio/content.js';
import { adoptDesign, type Design, designProblems, type Pace, START_DESIGN } from '../studio/design.js';
import { Export } from '../studio/export.js';
import { ColourField, EyesField, type FieldProps, GradientField, Picker, SchemaField } from '../studio/fields.js';
import { fieldName, inPageWords } from '../studio/labels.js';
import { ImageField } from '../studio/image-field.js';
import { Preview, PreviewDock } from '../studio/preview.js';
import { PrintCheck } from '../studio/print-check.js';
import { TemplateGallery } from '../studio/templates.js';
import { usePreview } from '../studio/use-preview.js';

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
          <Picker {...props} field="moduleShape" />
          <div class="row">
            <SchemaField {...props} path="moduleScale" />
            <SchemaField {...props} path="moduleSizeVariation" />
            <SchemaField {...props} path="qrShapeRadius" />
          </div>
        </>,
      )}
      {group(
        'Colours and gradients',
        true,
        <>
          <div class="row">
            <ColourField {...props} path="primaryColor" />
            <ColourField {...props} path="backgroundColor" />
          </div>
          <GradientField {...props} path="foregroundGradient" />
          <GradientField {...props} path="backgroundGradient" />
          <div class="row">
            <ColourField {...props} path="alignmentColor" />
            <ColourField {...props} path="timingColor" />
          </div>
        </>,
      )}
      {group(
        'Eyes',
        false,
        <>
          <Picker {...props} field="finderOuterShape" />
          <Picker {...props} field="finderInnerShape" />
          <div class="row">
            <ColourField {...props} path="finderOuterColor" />
            <ColourField {...props} path="finderInnerColor" />
          </div>
          <GradientField {...props} path="finderOuterGradient" />
          <GradientField {...props} path="finderInnerGradient" />
          <EyesField {...props} />
        </>,
      )}
      {group(
        'Logo',
        false,
        <>
          <ImageField {...props} path="logoBase64" />
          <div class="row">
            <SchemaField {...props} path="logoSizePercent" />
            <SchemaField {...props} path="logoPaddingPercent" />
            <SchemaField {...props} path="logoPlateShape" />
            <ColourField {...props} path="logoPlateColor" />
          </div>
        </>,
      )}
      {group(
        'Background image',
        false,
        <>
          <ImageField {...props} path="backgroundImageBase64" />
          <div class="row">
            <SchemaField {...props} path="backgroundImageOpacity" />
            <SchemaField {...props} path="backgroundImageFit" />
          </div>
        </>,
      )}
      {group(
        'Frame and caption',
        false,
        <>
          <Picker {...props} field="frameStyle" />
          <SchemaField {...props} path="ctaText" />
          <div class="row">
            <SchemaField {...props} path="fontFamily" />
            <ColourField {...props} path="ctaTextColor" />
            <ColourField {...props} path="frameColor" />
            <ColourField {...props} path="frameTextColor" />
          </div>
        </>,
      )}
      {group(
        'Centre text',
        false,
        <>
          <SchemaField {...props} path="centerText.text" />
          <div class="row">
            <ColourField {...props} path="centerText.color" />
            <ColourField {...props} path="centerText.backgroundColor" />
            <SchemaField {...props} path="centerText.fontSize" />
          </div>
        </>,
      )}
      {group(
        'Size, format and scanning',
        false,
        <div class="row">
          <SchemaField {...props} path="outputWidth" />
          <SchemaField {...props} path="fileFormat" />
          <SchemaField {...props} path="eccLevel" />
          <SchemaField {...props} path="quietZone" />
          <SchemaField {...props} path="minVersion" />
          <SchemaField {...props} path="strictScannability" />
        </div>,
      )}
    </section>
  );
}

function Studio() {
  const [content, setContent] = useState<ContentState>({ content: undefined, busy: true, typed: false });
  const [{ design, pace }, setEdit] = useState<{ design: Design; pace: Pace }>({ design: START_DESIGN, pace: 'now' });
  const [serverError, setServerError] = useState<{ field: string; message: string }>();
  const [loaded, setLoaded] = useState<string>();

  const problems = useMemo(() => {
    const p = designProblems(content.content ?? 'x', design);
    if (serverError && !p.has(serverError.field)) p.set(serverError.field, serverError.message);
    return p;
  }, [content.content, design, serverError]);
  const onChange = useCallback((d: Design, p: Pace) => {
    setServerError(undefined);
    setEdit({ design: d, pace: p });
  }, []);
  // Content typed into the link or text box is a run of changes too; a helper's built content comes at once.
  const onContent = useCallback((s: ContentState) => {
    setContent(s);
    setEdit((e) => ({ ...e, pace: s.typed ? 'typing' : 'now' }));
  }, []);
  const onFieldError = useCallback(
    (field: string | undefined, message: string | undefined) =>
      setServerError(field && message ? { field, message: inPageWords(message) } : undefined),
    [],
  );
  const refused = [...problems.keys()].find((f) => f !== serverError?.field);
  const blocked =
    content.busy || content.content === undefined
      ? 'Waiting for the content: fill in “1. Content” above.'
      : refused !== undefined
        ? `“${fieldName(refused)}” needs a change before the code can be drawn: see the message under it.`
        : undefined;
  const preview = usePreview(content.content, design, blocked, pace, onFieldError);
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
          <ContentPanel onContent={onContent} />
          <TemplateGallery
            onDesign={(d, name) => {
              onChange(adoptDesign(design, d), 'now');
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
              onChange(adoptDesign(design, d), 'now');
              setLoaded('The AI’s design is loaded: every field below can still be changed.');
            }}
          />
          <SaveDesign
            design={design}
            onOpen={(d, name) => {
              // The whole saved design, its pictures and size included: it is the person's own.
              onChange(d, 'now');
              setLoaded(`Saved design “${name}” loaded: every field below can still be changed.`);
            }}
          />
        </div>
        <div class="preview-pane">
          <Preview state={preview} blocked={blocked} />
          <PrintCheck content={blocked === undefined ? content.content : undefined} design={design} />
          <Export content={blocked === undefined ? content.content : undefined} design={design} />
        </div>
      </div>
      <PreviewDock state={preview} blocked={blocked} />
    </>
  );
}

mountPage('/studio', <Studio />);
