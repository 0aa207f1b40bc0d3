// A stacked bar per day, one colour per operation. Each bar segment carries its numbers as a
// tooltip, and the same figures are in a table under the chart for screen readers.
import { html } from "../html.ts";
import { formatCost } from "../ui/format.ts";
import type { Measure, UsageSeries } from "./usage-series.ts";

/** Each colour has at least 3:1 contrast with the white background (WCAG 1.4.11 for graphics). */
const PALETTE = ["#1d4ed8", "#b45309", "#047857", "#7e22ce", "#be123c", "#0e7490", "#4d7c0f", "#4b5563"];
const WIDTH = 600;
const HEIGHT = 180;
const AXIS = 28;
const BAR_GAP = 0.25;

export function operationColour(series: UsageSeries, operation: string): string {
  return PALETTE[series.operations.indexOf(operation) % PALETTE.length]!;
}

const formatValue = (measure: Measure, value: number) => (measure === "micros" ? formatCost(value) : String(value));

export function UsageChart({ id, title, series, measure }: { id: string; title: string; series: UsageSeries; measure: Measure }) {
  const max = series.max[measure];
  const slot = WIDTH / series.days.length;
  const barWidth = slot * (1 - BAR_GAP);
  const plotHeight = HEIGHT - AXIS;
  const bars = series.days.flatMap((day, index) => {
    let top = plotHeight;
    return series.operations.flatMap((operation) => {
      const value = series.values.get(day)?.[operation]?.[measure] ?? 0;
      if (value === 0 || max === 0) return [];
      const height = (value / max) * (plotHeight - 4);
      top -= height;
      return [
        html`<rect class="usage-bar" x=${index * slot + (slot - barWidth) / 2} y=${top} width=${barWidth} height=${height} fill=${operationColour(series, operation)} data-day=${day} data-operation=${operation}>
          <title>${day} ${operation}: ${formatValue(measure, value)}</title>
        </rect>`,
      ];
    });
  });
  const last = series.days.length - 1;
  // A label a week, counted back from the last day, which is always labelled (at the right edge).
  const labels = series.days.map((day, index) =>
    (last - index) % 7 === 0
      ? html`<text x=${index === last ? WIDTH : index * slot + slot / 2} y=${HEIGHT - 8} text-anchor=${index === last ? "end" : "middle"}>${day.slice(5)}</text>`
      : null,
  );
  return html`<figure class="usage-chart">
    <figcaption id=${`${id}-title`}>${title} <span class="chart-max">(tallest day: ${formatValue(measure, max)})</span></figcaption>
    <svg id=${id} viewBox=${`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby=${`${id}-title`}>
      <line x1="0" x2=${WIDTH} y1=${plotHeight} y2=${plotHeight} class="axis" />
      ${bars}
      ${labels}
    </svg>
  </figure>`;
}

export function UsageLegend({ series }: { series: UsageSeries }) {
  return html`<ul class="legend" aria-label="Operations">
    ${series.operations.map((operation) => html`<li><span class="swatch" style=${`background: ${operationColour(series, operation)}`}></span>${operation}</li>`)}
  </ul>`;
}

export function UsageTable({ series }: { series: UsageSeries }) {
  const rows = series.days.flatMap((day) =>
    Object.entries(series.values.get(day) ?? {}).map(([operation, value]) => html`<tr><td>${day}</td><td>${operation}</td><td>${value.count}</td><td>${formatCost(value.micros)}</td></tr>`),
  );
  return html`<details class="usage-table">
    <summary>Usage as a table</summary>
    <table>
      <thead><tr><th scope="col">Day</th><th scope="col">Operation</th><th scope="col">Count</th><th scope="col">Spend</th></tr></thead>
      <tbody>${rows}</tbody>
    </table>
  </details>`;
}
