// The public API's bodies as the generated client types name them (types only: nothing is bundled).
import type { components } from "../../clients/ts/api-types.ts";

type Schemas = components["schemas"];
export type ImageOptions = Schemas["ImageOptions"];
export type ImageResult = Schemas["ImageResult"];
export type Account = Schemas["Account"];
export type Usage = Schemas["Usage"];
export type ApiKey = Schemas["ApiKey"];
export type Scope = NonNullable<ApiKey["scopes"]>[number];
export type CreatedApiKey = Schemas["CreatedApiKey"];
export type PdfAnalysis = Schemas["PdfAnalysis"];
export type PdfCompressOptions = Schemas["PdfCompressOptions"];
export type PdfCompressResult = Schemas["PdfCompressResult"];
export type PdfCompressJob = Schemas["PdfCompressJob"];
export type JobAccepted = Schemas["JobAccepted"];

/**
 * A list the console writes out for a control, checked to hold every member of the API's union and
 * nothing else: `allOf<Fit>()(["inside", ...])` fails the typecheck when the API's union changes.
 */
export const allOf =
  <Union>() =>
  <const List extends readonly Union[]>(list: List & ([Union] extends [List[number]] ? unknown : never)): List =>
    list;
