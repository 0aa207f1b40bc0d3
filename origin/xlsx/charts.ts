// Native charts: one chart part per chart (DrawingML chart XML over sheet ranges, no cached
// values, so Excel and LibreOffice read the cells when they open the file) and one drawing
// part per sheet that anchors them. The layout follows what Excel itself writes for each type.
import { parseA1Cell, type XlsxSheet } from "../../contracts/xlsx-request.ts";
import { parseSheetRange, qualifiedRange } from "../../contracts/xlsx-a1.ts";
import type { XlsxChart } from "../../contracts/xlsx-features.ts";
import { XML_DECLARATION, xmlText } from "./xml-text.ts";

export const EMU_PER_PIXEL = 9525;
const CAT_AXIS = 500_000_001;
const VAL_AXIS = 500_000_002;
const LEGEND_POSITIONS = { right: "r", left: "l", top: "t", bottom: "b" } as const;

function richText(text: string): string {
  return `<c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>${xmlText(text)}</a:t></a:r></a:p></c:rich></c:tx>`;
}

function titleXml(text: string | undefined): string {
  return text === undefined ? "" : `<c:title>${richText(text)}<c:overlay val="0"/></c:title>`;
}

/** A series reference with its sheet spelled out: the sheet named (in its request spelling) or the chart's own. */
function reference(ref: string, ownSheet: string, sheetNames: readonly string[]): string {
  const { sheet, range } = parseSheetRange(ref);
  const name = sheet === undefined ? ownSheet : (sheetNames.find((n) => n.toLowerCase() === sheet.toLowerCase()) ?? sheet);
  return xmlText(qualifiedRange(name, range));
}

function seriesXml(chart: XlsxChart, ownSheet: string, sheetNames: readonly string[]): string {
  return chart.series
    .map((series, i) => {
      const head = `<c:idx val="${i}"/><c:order val="${i}"/>${series.name !== undefined ? `<c:tx><c:v>${xmlText(series.name)}</c:v></c:tx>` : ""}`;
      const values = reference(series.values, ownSheet, sheetNames);
      const categories = series.categories === undefined ? undefined : reference(series.categories, ownSheet, sheetNames);
      if (chart.type === "scatter") {
        const x = categories === undefined ? "" : `<c:xVal><c:numRef><c:f>${categories}</c:f></c:numRef></c:xVal>`;
        // Markers only, as Excel's plain "Scatter" draws: no line between the points.
        return `<c:ser>${head}<c:spPr><a:ln w="19050"><a:noFill/></a:ln></c:spPr><c:marker><c:symbol val="circle"/></c:marker>${x}<c:yVal><c:numRef><c:f>${values}</c:f></c:numRef></c:yVal><c:smooth val="0"/></c:ser>`;
      }
      const cat = categories === undefined ? "" : `<c:cat><c:strRef><c:f>${categories}</c:f></c:strRef></c:cat>`;
      const val = `<c:val><c:numRef><c:f>${values}</c:f></c:numRef></c:val>`;
      if (chart.type === "column" || chart.type === "bar") return `<c:ser>${head}<c:invertIfNegative val="0"/>${cat}${val}</c:ser>`;
      if (chart.type === "line") return `<c:ser>${head}<c:marker><c:symbol val="none"/></c:marker>${cat}${val}<c:smooth val="0"/></c:ser>`;
      return `<c:ser>${head}${cat}${val}</c:ser>`;
    })
    .join("");
}

function axesXml(chart: XlsxChart): string {
  const horizontal = chart.type === "bar";
  const catPos = horizontal ? "l" : "b";
  const valPos = horizontal ? "b" : "l";
  const xTitle = titleXml(chart.x_axis?.title);
  const yTitle = titleXml(chart.y_axis?.title);
  const common = (id: number, pos: string) => `<c:axId val="${id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/>`;
  if (chart.type === "scatter") {
    return (
      `<c:valAx>${common(CAT_AXIS, "b")}${xTitle}<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="${VAL_AXIS}"/><c:crosses val="autoZero"/><c:crossBetween val="midCat"/></c:valAx>` +
      `<c:valAx>${common(VAL_AXIS, "l")}<c:majorGridlines/>${yTitle}<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="${CAT_AXIS}"/><c:crosses val="autoZero"/><c:crossBetween val="midCat"/></c:valAx>`
    );
  }
  return (
    `<c:catAx>${common(CAT_AXIS, catPos)}${xTitle}<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="${VAL_AXIS}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>` +
    `<c:valAx>${common(VAL_AXIS, valPos)}<c:majorGridlines/>${yTitle}<c:numFmt formatCode="${chart.subtype === "percent_stacked" ? "0%" : "General"}" sourceLinked="${chart.subtype === "percent_stacked" ? 0 : 1}"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="${CAT_AXIS}"/><c:crosses val="autoZero"/><c:crossBetween val="${chart.type === "area" ? "midCat" : "between"}"/></c:valAx>`
  );
}

function plotXml(chart: XlsxChart, series: string): string {
  const axisIds = `<c:axId val="${CAT_AXIS}"/><c:axId val="${VAL_AXIS}"/>`;
  const grouping = chart.subtype === "stacked" ? "stacked" : chart.subtype === "percent_stacked" ? "percentStacked" : undefined;
  switch (chart.type) {
    case "column":
    case "bar":
      return (
        `<c:barChart><c:barDir val="${chart.type === "bar" ? "bar" : "col"}"/><c:grouping val="${grouping ?? "clustered"}"/><c:varyColors val="0"/>${series}` +
        `<c:gapWidth val="150"/>${grouping ? '<c:overlap val="100"/>' : ""}${axisIds}</c:barChart>${axesXml(chart)}`
      );
    case "line":
      return `<c:lineChart><c:grouping val="${grouping ?? "standard"}"/><c:varyColors val="0"/>${series}<c:marker val="1"/>${axisIds}</c:lineChart>${axesXml(chart)}`;
    case "area":
      return `<c:areaChart><c:grouping val="${grouping ?? "standard"}"/><c:varyColors val="0"/>${series}${axisIds}</c:areaChart>${axesXml(chart)}`;
    case "scatter":
      return `<c:scatterChart><c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>${series}${axisIds}</c:scatterChart>${axesXml(chart)}`;
    case "pie":
      return `<c:pieChart><c:varyColors val="1"/>${series}<c:firstSliceAng val="0"/></c:pieChart>`;
    case "doughnut":
      return `<c:doughnutChart><c:varyColors val="1"/>${series}<c:firstSliceAng val="0"/><c:holeSize val="50"/></c:doughnutChart>`;
  }
}

/** The chart part (xl/charts/chartN.xml). */
export function chartXml(chart: XlsxChart, ownSheet: string, sheetNames: readonly string[]): string {
  const series = seriesXml(chart, ownSheet, sheetNames);
  const legend = chart.legend.position === "none" ? "" : `<c:legend><c:legendPos val="${LEGEND_POSITIONS[chart.legend.position]}"/><c:overlay val="0"/></c:legend>`;
  return (
    `${XML_DECLARATION}<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
    '<c:roundedCorners val="0"/><c:chart>' +
    titleXml(chart.title) +
    `<c:autoTitleDeleted val="${chart.title === undefined ? 1 : 0}"/>` +
    `<c:plotArea><c:layout/>${plotXml(chart, series)}</c:plotArea>` +
    `${legend}<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>`
  );
}

/** Each chart's anchor in the sheet's drawing part, at its cell with its size; `relIds[i]` links chart i. */
export function chartAnchorsXml(sheet: XlsxSheet, relIds: readonly string[]): string {
  return sheet.charts
    .map((chart, i) => {
      const { row, col } = parseA1Cell(chart.anchor);
      return (
        `<xdr:oneCellAnchor><xdr:from><xdr:col>${col - 1}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row - 1}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
        `<xdr:ext cx="${chart.size.width * EMU_PER_PIXEL}" cy="${chart.size.height * EMU_PER_PIXEL}"/>` +
        `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${i + 2}" name="Chart ${i + 1}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
        '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>' +
        `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${relIds[i]}"/></a:graphicData></a:graphic>` +
        "</xdr:graphicFrame><xdr:clientData/></xdr:oneCellAnchor>"
      );
    })
    .join("");
}
