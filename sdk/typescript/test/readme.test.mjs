// The README's TypeScript examples run as written: each ```ts block
// follows an "<!-- example: PATH -->" line and equals that file, and tsc
// type-checks the files against the built package. The package ships the
// repository's LICENSE.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const here = (p) => new URL(`../${p}`, import.meta.url);

test("README code blocks are the type-checked example files", () => {
  const lines = readFileSync(here("README.md"), "utf8").split("\n");
  const seen = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)$/.test(lines[i])) continue;
    const marker = /^<!-- example: (\S+) -->$/.exec(lines[i - 1] ?? "");
    assert.ok(marker, `README.md:${i + 1}: a TypeScript block without an <!-- example: PATH --> line before it`);
    const end = lines.indexOf("```", i + 1);
    const block = lines.slice(i + 1, end).join("\n") + "\n";
    assert.equal(block, readFileSync(here(marker[1]), "utf8"), `README block for ${marker[1]} differs from the file`);
    seen.push(marker[1]);
    i = end;
  }
  assert.ok(seen.length >= 5, `only ${seen.length} examples in the README`);
  execFileSync(process.execPath, [new URL("../node_modules/typescript/bin/tsc", import.meta.url).pathname, "-p", "tsconfig.examples.json"], {
    cwd: here("").pathname,
    stdio: "pipe",
  });
});

test("the npm package ships the repository's LICENSE and says MIT", () => {
  const pkg = JSON.parse(readFileSync(here("package.json"), "utf8"));
  assert.equal(pkg.license, "MIT");
  assert.equal(readFileSync(here("LICENSE"), "utf8"), readFileSync(here("../../LICENSE"), "utf8"));
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: here("").pathname, encoding: "utf8" }));
  const files = packed.files.map((f) => f.path);
  assert.ok(files.includes("LICENSE"), `LICENSE not in ${files.join(", ")}`);
  assert.ok(files.includes("dist/esm/fastify.js") && files.includes("dist/cjs/hono.js"));
});

test("engines declares the tested Node versions", () => {
  const pkg = JSON.parse(readFileSync(here("package.json"), "utf8"));
  assert.equal(pkg.engines.node, ">=20");
  assert.ok(Number(process.versions.node.split(".")[0]) >= 20);
});
