import { describe, expect, it } from "vitest";
import { requireLoopbackClient } from "./dev-only.server";
import { CLIENT_ADDRESS_HEADER } from "./request-context.server";

const from = (address?: string) =>
  new Request("http://docs.example.com/dev/mailbox", { headers: address ? { [CLIENT_ADDRESS_HEADER]: address } : {} });

const answer = (request: Request) => {
  try {
    requireLoopbackClient(request);
    return "served";
  } catch (error) {
    return error instanceof Response ? error.status : error;
  }
};

describe("a development-only route", () => {
  it("is served to a browser on the server's own machine", () => {
    for (const address of ["127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1"]) expect(answer(from(address)), address).toBe("served");
  });

  it("does not exist for anyone else, nor when the socket address is unknown", () => {
    for (const address of ["203.0.113.7", "192.168.1.20", "10.0.0.2", "fe80::1", "2001:db8::1", "::ffff:10.0.0.1", "unknown"]) {
      expect(answer(from(address)), address).toBe(404);
    }
    expect(answer(from())).toBe(404);
  });
});
