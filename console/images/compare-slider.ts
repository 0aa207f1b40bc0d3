// Before and after in one frame: the original on the left of the split, the result on the right.
// Both are drawn at the result's pixel size times the zoom, so at 1:1 one result pixel is one
// device pixel and a zoomed view shows pixels as squares; the frame scrolls to pan. "Fit" shows the
// whole picture: as wide as the frame allows and no taller than the frame's height (a portrait page
// included).
import { useState } from "preact/hooks";
import { html } from "../html.ts";

const ZOOMS = [
  { value: "fit", label: "Fit" },
  { value: "1", label: "1:1" },
  { value: "2", label: "2:1" },
  { value: "4", label: "4:1" },
] as const;
type Zoom = (typeof ZOOMS)[number]["value"];
/** The frame's max-height in styles.css (.compare-frame), inside its 1px border. */
const FRAME_MAX_HEIGHT_VH = 75;

export interface CompareSliderProps {
  id: string;
  name: string;
  beforeUrl: string;
  afterUrl: string;
  width: number;
  height: number;
}

export function CompareSlider({ id, name, beforeUrl, afterUrl, width, height }: CompareSliderProps) {
  const [split, setSplit] = useState(50);
  const [zoom, setZoom] = useState<Zoom>("fit");
  const scale = zoom === "fit" ? null : Number(zoom) / devicePixelRatio;
  const stageStyle = scale === null ? `aspect-ratio: ${width} / ${height}; width: min(${width}px, calc((${FRAME_MAX_HEIGHT_VH}vh - 2px) * ${width} / ${height})); max-width: 100%` : `width: ${width * scale}px; height: ${height * scale}px`;
  return html`<figure class="compare">
    <div class="compare-frame" tabindex="0" role="group" aria-label=${`${name}: original and result, scroll to pan`}>
      <div class=${`compare-stage${scale !== null && scale > 1 ? " pixelated" : ""}`} style=${stageStyle}>
        <img class="compare-before" src=${beforeUrl} alt=${`Original of ${name}`} />
        <img class="compare-after" id=${`${id}-result`} src=${afterUrl} alt=${`Result of ${name}`} style=${`clip-path: inset(0 0 0 ${split}%)`} />
        <div class="compare-divider" style=${`left: ${split}%`} aria-hidden="true"></div>
      </div>
    </div>
    <figcaption class="compare-controls">
      <span class="compare-label" aria-hidden="true">Original</span>
      <label for=${`${id}-split`}>Split</label>
      <input id=${`${id}-split`} type="range" min="0" max="100" step="1" value=${split} aria-valuetext=${`${split}% original`} onInput=${(event: Event) => setSplit(Number((event.currentTarget as HTMLInputElement).value))} />
      <span class="compare-label" aria-hidden="true">Result</span>
      <label for=${`${id}-zoom`}>Zoom</label>
      <select id=${`${id}-zoom`} value=${zoom} onChange=${(event: Event) => setZoom((event.currentTarget as HTMLSelectElement).value as Zoom)}>
        ${ZOOMS.map((option) => html`<option value=${option.value}>${option.label}</option>`)}
      </select>
    </figcaption>
  </figure>`;
}
