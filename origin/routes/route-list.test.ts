import { describe, expect, it } from "vitest";
import { ORIGIN_DEADLINES } from "../../contracts/limits/deadlines.ts";
import { encodeOptionsHeader, ORIGIN_OPTIONS_HEADER, ORIGIN_SECRET_HEADER } from "../../contracts/origin/framing.ts";
import { createOriginApp } from "../app.ts";
import { originRoutes, routeModuleOf } from "./route-list.ts";

const app = createOriginApp({ secret: "s" });

describe("the origin's route list", () => {
  it("has one route per declared origin endpoint, each from the module its path names", () => {
    expect(originRoutes.map((route) => route.path).sort()).toEqual(Object.keys(ORIGIN_DEADLINES).sort());
    expect(routeModuleOf("/xlsx/generate")).toBe("./xlsx-generate.ts");
  });

  it("serves every declared endpoint: a malformed call is the route's 400, not the app's 404", async () => {
    for (const path of Object.keys(ORIGIN_DEADLINES)) {
      const res = await app.request(path, {
        method: "POST",
        body: "not a valid input",
        headers: { [ORIGIN_SECRET_HEADER]: "s", [ORIGIN_OPTIONS_HEADER]: encodeOptionsHeader({ undeclared_option: true }) },
      });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
    }
  });
});
