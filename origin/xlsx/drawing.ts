// A sheet's drawing part: its charts (each its own chart part) and its pictures (each its own
// media part), anchored at their cells. Pictures are decoded here from the base64 the request
// checks already accepted as PNG or JPEG.
import { parseA1Cell } from "../../contracts/xlsx-a1.ts";
import { decodeBase64 } from "../../contracts/encoding/base64.ts";
import { readImageFacts } from "../../contracts/xlsx-image.ts";
import { imageDisplaySize, type XlsxImage } from "../../contracts/xlsx-sheet-options.ts";
import type { XlsxSheet } from "../../contracts/xlsx-request.ts";
import { chartAnchorsXml, chartXml, EMU_PER_PIXEL } from "./charts.ts";
import { CONTENT_TYPES, relationshipsXml, RELATIONSHIP_TYPES, type Relationship } from "./package-parts.ts";
import type { SheetContext } from "./sheet-context.ts";
import { attribute, XML_DECLARATION } from "./xml-text.ts";

const MEDIA_TYPES = { png: "image/png", jpeg: "image/jpeg" } as const;

function pictureAnchorXml(image: XlsxImage, size: { width: number; height: number }, shapeId: number, number: number, relId: string): string {
  const { row, col } = parseA1Cell(image.anchor);
  const cx = size.width * EMU_PER_PIXEL;
  const cy = size.height * EMU_PER_PIXEL;
  return (
    `<xdr:oneCellAnchor><xdr:from><xdr:col>${col - 1}</xdr:col><xdr:colOff>${image.offset.x * EMU_PER_PIXEL}</xdr:colOff><xdr:row>${row - 1}</xdr:row><xdr:rowOff>${image.offset.y * EMU_PER_PIXEL}</xdr:rowOff></xdr:from>` +
    `<xdr:ext cx="${cx}" cy="${cy}"/>` +
    `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${shapeId}" name="Picture ${number}"${attribute("descr", image.alt_text)}/><xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>` +
    `<xdr:blipFill><a:blip r:embed="${relId}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
    `<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>`
  );
}

/** Writes the sheet's chart parts, media parts and its drawing part `drawing` with its relationships. */
export async function writeDrawing(sheet: XlsxSheet, drawing: number, context: SheetContext): Promise<void> {
  const relationships: Relationship[] = [];
  const relate = (type: string, target: string) => {
    const id = `rId${relationships.length + 1}`;
    relationships.push({ id, type, target });
    return id;
  };
  const chartIds: string[] = [];
  for (const chart of sheet.charts) {
    const number = ++context.parts.charts;
    await context.zip.addFile(`xl/charts/chart${number}.xml`, chartXml(chart, sheet.name, context.sheetNames));
    context.parts.contentTypes.push([`/xl/charts/chart${number}.xml`, CONTENT_TYPES.chart]);
    chartIds.push(relate(RELATIONSHIP_TYPES.chart, `../charts/chart${number}.xml`));
  }
  let pictures = "";
  for (const [i, image] of sheet.images.entries()) {
    const bytes = "base64" in image.source ? decodeBase64(image.source.base64) : undefined;
    const facts = bytes && readImageFacts(bytes);
    if (!bytes || !facts) throw new Error(`unchecked picture ${i} on sheet ${sheet.name}`);
    const number = ++context.parts.images;
    const path = `media/image${number}.${facts.format === "png" ? "png" : "jpeg"}`;
    await context.zip.addFile(`xl/${path}`, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    context.parts.contentTypes.push([`/xl/${path}`, MEDIA_TYPES[facts.format]]);
    pictures += pictureAnchorXml(image, imageDisplaySize(image, facts), sheet.charts.length + i + 2, i + 1, relate(RELATIONSHIP_TYPES.image, `../${path}`));
  }
  await context.zip.addFile(
    `xl/drawings/drawing${drawing}.xml`,
    `${XML_DECLARATION}<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${chartAnchorsXml(sheet, chartIds)}${pictures}</xdr:wsDr>`,
  );
  await context.zip.addFile(`xl/drawings/_rels/drawing${drawing}.xml.rels`, relationshipsXml(relationships));
  context.parts.contentTypes.push([`/xl/drawings/drawing${drawing}.xml`, CONTENT_TYPES.drawing]);
}
