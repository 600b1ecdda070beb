import { describe, expect, it } from "vitest";
import { acceptedBodyTypes, FORM_TYPES, unreadableForm, unsupportedBodyType } from "./body-type.server";

const action = async () => null;
const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).buffer as ArrayBuffer;

describe("the body a route's action reads", () => {
  it("is a form for a page's action, what the route says when it says, and the route's own check under /api", () => {
    expect(acceptedBodyTypes({ action }, "/login")).toEqual(FORM_TYPES);
    expect(acceptedBodyTypes({ action, bodyTypes: ["application/json"] }, "/profile")).toEqual(["application/json"]);
    expect(acceptedBodyTypes({ action }, "/api/workspaces")).toBeNull();
    expect(acceptedBodyTypes({ action }, "/mcp")).toBeNull();
    expect(acceptedBodyTypes({}, "/help/keys")).toBeNull();
  });
});

describe("a body that is not a form, sent to a form's action", () => {
  it("is refused 415 naming what the address accepts and what was sent", () => {
    expect(unsupportedBodyType(FORM_TYPES, "application/x-www-form-urlencoded;charset=UTF-8")).toBeNull();
    expect(unsupportedBodyType(FORM_TYPES, "multipart/form-data; boundary=x")).toBeNull();
    const text = unsupportedBodyType(FORM_TYPES, "text/plain");
    expect(text).toMatchObject({ status: 415 });
    expect(text?.detail).toBe("This address accepts a form (application/x-www-form-urlencoded or multipart/form-data); the request sent text/plain.");
    expect(unsupportedBodyType(FORM_TYPES, undefined)?.detail).toMatch(/sent no Content-Type\.$/);
  });

  it("is refused 400 when it says it is a form but cannot be read as one", async () => {
    const broken = await unreadableForm(bytes('--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb'), "multipart/form-data; boundary=XYZ", FORM_TYPES);
    expect(broken).toMatchObject({ status: 400, detail: expect.stringMatching(/could not be read.*accepts a form/) });
    const whole = '--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--XYZ--\r\n';
    expect(await unreadableForm(bytes(whole), "multipart/form-data; boundary=XYZ", FORM_TYPES)).toBeNull();
    expect(await unreadableForm(bytes("a=b"), "application/x-www-form-urlencoded", FORM_TYPES)).toBeNull();
  });
});
