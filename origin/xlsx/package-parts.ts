// The package around the sheets: content types, relationships, the workbook part and the
// document properties. Every part the writer adds is registered here with its content type.
import { XML_DECLARATION, xmlText } from "./xml-text.ts";
import type { XlsxRequest } from "../../contracts/xlsx-request.ts";

const OFFICE_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

export const RELATIONSHIP_TYPES = {
  officeDocument: `${OFFICE_RELS}/officeDocument`,
  coreProperties: "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
  extendedProperties: `${OFFICE_RELS}/extended-properties`,
  worksheet: `${OFFICE_RELS}/worksheet`,
  styles: `${OFFICE_RELS}/styles`,
  sharedStrings: `${OFFICE_RELS}/sharedStrings`,
  hyperlink: `${OFFICE_RELS}/hyperlink`,
  table: `${OFFICE_RELS}/table`,
  drawing: `${OFFICE_RELS}/drawing`,
  chart: `${OFFICE_RELS}/chart`,
  comments: `${OFFICE_RELS}/comments`,
  vmlDrawing: `${OFFICE_RELS}/vmlDrawing`,
  image: `${OFFICE_RELS}/image`,
  theme: `${OFFICE_RELS}/theme`,
} as const;

export const CONTENT_TYPES = {
  workbook: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
  worksheet: "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml",
  styles: "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml",
  sharedStrings: "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml",
  core: "application/vnd.openxmlformats-package.core-properties+xml",
  app: "application/vnd.openxmlformats-officedocument.extended-properties+xml",
  table: "application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml",
  drawing: "application/vnd.openxmlformats-officedocument.drawing+xml",
  chart: "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
  comments: "application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml",
  theme: "application/vnd.openxmlformats-officedocument.theme+xml",
} as const;

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external?: boolean;
}

export function relationshipsXml(relationships: readonly Relationship[]): string {
  const items = relationships.map(
    (rel) => `<Relationship Id="${rel.id}" Type="${rel.type}" Target="${xmlText(rel.target)}"${rel.external ? ' TargetMode="External"' : ""}/>`,
  );
  return `${XML_DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join("")}</Relationships>`;
}

/** `[Content_Types].xml` for the parts written, each named from the package root (`/xl/...`). */
export function contentTypesXml(parts: readonly [string, string][]): string {
  const overrides = parts.map(([name, type]) => `<Override PartName="${name}" ContentType="${type}"/>`).join("");
  return (
    `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>' +
    `${overrides}</Types>`
  );
}

export const ROOT_RELATIONSHIPS = relationshipsXml([
  { id: "rId1", type: RELATIONSHIP_TYPES.officeDocument, target: "xl/workbook.xml" },
  { id: "rId2", type: RELATIONSHIP_TYPES.coreProperties, target: "docProps/core.xml" },
  { id: "rId3", type: RELATIONSHIP_TYPES.extendedProperties, target: "docProps/app.xml" },
]);

export interface DefinedName {
  name: string;
  /** Index of the sheet the name is local to. */
  localSheet?: number;
  hidden?: boolean;
  formula: string;
}

/** `protection` is the `<workbookProtection>` element or empty. */
export function workbookXml(sheetNames: readonly string[], definedNames: readonly DefinedName[], protection: string): string {
  const sheets = sheetNames.map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("");
  const names = definedNames
    .map((d) => `<definedName name="${xmlText(d.name)}"${d.localSheet !== undefined ? ` localSheetId="${d.localSheet}"` : ""}${d.hidden ? ' hidden="1"' : ""}>${xmlText(d.formula)}</definedName>`)
    .join("");
  return (
    `${XML_DECLARATION}<workbook xmlns="${MAIN_NS}" xmlns:r="${OFFICE_RELS}">` +
    '<workbookPr defaultThemeVersion="124226"/>' +
    protection +
    '<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="28800" windowHeight="12300"/></bookViews>' +
    `<sheets>${sheets}</sheets>` +
    (names ? `<definedNames>${names}</definedNames>` : "") +
    '<calcPr calcId="191029" fullCalcOnLoad="1"/></workbook>'
  );
}

export function workbookRelationshipsXml(sheetCount: number): string {
  const sheets: Relationship[] = Array.from({ length: sheetCount }, (_, i) => ({ id: `rId${i + 1}`, type: RELATIONSHIP_TYPES.worksheet, target: `worksheets/sheet${i + 1}.xml` }));
  return relationshipsXml([
    ...sheets,
    { id: `rId${sheetCount + 1}`, type: RELATIONSHIP_TYPES.styles, target: "styles.xml" },
    { id: `rId${sheetCount + 2}`, type: RELATIONSHIP_TYPES.sharedStrings, target: "sharedStrings.xml" },
    { id: `rId${sheetCount + 3}`, type: RELATIONSHIP_TYPES.theme, target: "theme/theme1.xml" },
  ]);
}

const CREATOR = "pixelpress";

export function corePropertiesXml(properties: XlsxRequest["properties"], now: Date): string {
  const element = (tag: string, value: string | undefined) => (value === undefined ? "" : `<${tag}>${xmlText(value)}</${tag}>`);
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, "Z");
  const creator = properties.creator ?? CREATOR;
  return (
    `${XML_DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
    element("dc:title", properties.title) +
    element("dc:subject", properties.subject) +
    element("dc:creator", creator) +
    element("cp:keywords", properties.keywords) +
    element("dc:description", properties.description) +
    element("cp:lastModifiedBy", creator) +
    element("cp:category", properties.category) +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${stamp}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${stamp}</dcterms:modified>` +
    "</cp:coreProperties>"
  );
}

export function appPropertiesXml(sheetNames: readonly string[]): string {
  const titles = sheetNames.map((name) => `<vt:lpstr>${xmlText(name)}</vt:lpstr>`).join("");
  return (
    `${XML_DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
    `<Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>` +
    `<HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>${sheetNames.length}</vt:i4></vt:variant></vt:vector></HeadingPairs>` +
    `<TitlesOfParts><vt:vector size="${sheetNames.length}" baseType="lpstr">${titles}</vt:vector></TitlesOfParts>` +
    "<AppVersion>16.0300</AppVersion></Properties>"
  );
}
