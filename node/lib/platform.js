"use strict";
// napi-rs's names for platforms (`linux-x64-gnu`, `darwin-arm64`, `win32-x64-msvc`): the
// native addon of this package is `citestore.<name>.node`.

function isMusl() {
  try {
    const report = process.report && process.report.getReport();
    const header = report && (typeof report === "string" ? JSON.parse(report) : report).header;
    return !(header && header.glibcVersionRuntime);
  } catch {
    return false;
  }
}

function platformName() {
  const { platform, arch } = process;
  if (platform === "linux") return `${platform}-${arch}-${isMusl() ? "musl" : "gnu"}`;
  if (platform === "win32") return `${platform}-${arch}-msvc`;
  return `${platform}-${arch}`;
}

module.exports = { platformName };
