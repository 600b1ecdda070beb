// Preloaded (node --require) into a process and its worker threads: every way
// out to the network throws, so code that runs here provably works offline.
const net = require("node:net");
const dns = require("node:dns");
const refuse = (what) => {
  const error = new Error(`network is cut off in this process (${what})`);
  error.code = "ENETUNREACH";
  return error;
};
net.Socket.prototype.connect = function connect() {
  throw refuse("socket connect");
};
dns.lookup = function lookup() {
  throw refuse("dns lookup");
};
dns.promises.lookup = async function lookup() {
  throw refuse("dns lookup");
};
globalThis.fetch = async function fetch() {
  throw refuse("fetch");
};
