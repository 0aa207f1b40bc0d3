// The workbook's theme part (xl/theme/theme1.xml). Chart series, table styles and "automatic"
// colours are theme colours: without a theme LibreOffice drew every chart series with no fill.
// The colours and fonts are those of Excel's default (Office 2013 and later) theme; the format
// scheme is the plainest the schema allows (solid fills, plain lines, no effects).
import { XML_DECLARATION } from "./xml-text.ts";

const ACCENTS = ["4472C4", "ED7D31", "A5A5A5", "FFC000", "5B9BD5", "70AD47"];

const solidFills = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'.repeat(3);
const lines = [6350, 12700, 19050].map((width) => `<a:ln w="${width}"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>`).join("");

export const THEME_XML =
  `${XML_DECLARATION}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme"><a:themeElements>` +
  '<a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>' +
  '<a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2>' +
  ACCENTS.map((rgb, i) => `<a:accent${i + 1}><a:srgbClr val="${rgb}"/></a:accent${i + 1}>`).join("") +
  '<a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme>' +
  '<a:fontScheme name="Office"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>' +
  '<a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>' +
  `<a:fmtScheme name="Office"><a:fillStyleLst>${solidFills}</a:fillStyleLst><a:lnStyleLst>${lines}</a:lnStyleLst>` +
  `<a:effectStyleLst>${"<a:effectStyle><a:effectLst/></a:effectStyle>".repeat(3)}</a:effectStyleLst><a:bgFillStyleLst>${solidFills}</a:bgFillStyleLst></a:fmtScheme>` +
  "</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>";
