// site.mjs SITE_DIR SHOTS_DIR - drive an `iomatrix site` in the system
// Chromium (puppeteer-core, no download, no network): on the index, sort
// every sortable column both ways and check the order against the cells'
// own values; filter and check that exactly the matching rows stay; then
// follow every link of every page reachable from the index and check that
// it lands on a file of the site (and on an element for a #fragment).  Any
// console error, page error or failed request fails.  Screenshots go to
// SHOTS_DIR.  Prints TAP lines; exit 1 on any failure.
// env: CHROME (the browser binary).
import puppeteer from "puppeteer-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const [site, shots] = process.argv.slice(2);
const root = path.resolve(site);
let n = 0, failed = 0;
const ok = (good, what) => {
  n++;
  if (!good) failed++;
  console.log(`${good ? "ok" : "not ok"} ${n} - ${what}`);
};

const browser = await puppeteer.launch({
  executablePath: process.env.CHROME,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const problems = [];
const page = await browser.newPage();
await page.setViewport({ width: 1100, height: 900 });
page.on("console", (m) => {
  if (m.type() === "error") problems.push(`console error on ${page.url()}: ${m.text()}`);
});
page.on("pageerror", (e) => problems.push(`page error on ${page.url()}: ${e.message}`));
page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
// nothing leaves the machine: any request that is not a file of the site fails
await page.setRequestInterception(true);
page.on("request", (r) => {
  const u = r.url();
  if (u.startsWith("data:") || (u.startsWith("file:") && fileURLToPath(u).startsWith(root))) r.continue();
  else { problems.push(`request outside the site: ${u} from ${page.url()}`); r.abort(); }
});
const shot = async (name) => page.screenshot({ path: path.join(shots, name), fullPage: true });

// ---- the index: sort every column, filter ----
const index = pathToFileURL(path.join(root, "index.html")).href;
await page.goto(index, { waitUntil: "load" });
await shot("index.png");
const ncols = await page.$$eval("#sets thead th", (t) => t.length);
const buttons = await page.$$eval("#sets thead th button", (b) => b.length);
ok(ncols > 0 && buttons === ncols, `every one of the ${ncols} columns is sortable (${buttons} buttons)`);

// the visible rows' keys in column col: data-sort when the cell has it, else its text
const keys = (col) => page.$$eval("#sets tbody tr", (rows, col) => rows.filter((r) => !r.hidden).map((r) => {
  const c = r.cells[col];
  const v = c.getAttribute("data-sort");
  return v !== null ? v : c.textContent.trim().toLowerCase();
}), col);
const sorted = (v, numeric, asc) => {
  for (let i = 1; i < v.length; i++) {
    const a = v[i - 1], b = v[i];
    const d = numeric ? parseFloat(a) - parseFloat(b) : (a < b ? -1 : a > b ? 1 : 0);
    if (asc ? d > 0 : d < 0) return `${JSON.stringify(a)} before ${JSON.stringify(b)}`;
  }
  return "";
};
const nrows = (await keys(0)).length;
for (let col = 0; col < ncols; col++) {
  const th = `#sets thead th:nth-child(${col + 1})`;
  const label = await page.$eval(th, (t) => t.textContent.trim());
  const numeric = await page.$eval(th, (t) => t.classList.contains("n"));
  const before = (await keys(col)).slice().sort();
  for (const asc of [true, false]) {
    await page.click(`${th} button`);
    const v = await keys(col);
    const aria = await page.$eval(th, (t) => t.getAttribute("aria-sort"));
    const bad = sorted(v, numeric, asc);
    const same = JSON.stringify(v.slice().sort()) === JSON.stringify(before);
    ok(!bad && same && v.length === nrows && aria === (asc ? "ascending" : "descending"),
      `sort by ${label} ${asc ? "ascending" : "descending"}${numeric ? " (numeric)" : ""}: ` +
      (bad || (!same ? "rows lost or changed" : `${v.length} rows in order, aria-sort ${aria}`)));
  }
}
await shot("index-sorted.png");

// filter by the first row's host: the rows left are exactly those that say it
const term = await page.$eval("#sets tbody tr td:nth-child(3)", (c) => c.textContent.trim());
await page.type("#filter input", term);
const shown = await page.$$eval("#sets tbody tr", (rows, q) => rows.map((r) =>
  [!r.hidden, r.textContent.toLowerCase().includes(q.toLowerCase())]), term);
const wrong = shown.filter(([vis, has]) => vis !== has).length;
const visible = shown.filter(([vis]) => vis).length;
ok(term && wrong === 0 && visible > 0, `filter '${term}': ${visible} of ${shown.length} rows shown, ${wrong} wrong`);
await shot("index-filtered.png");
await page.$eval("#filter input", (i) => { i.value = ""; i.dispatchEvent(new Event("input")); });
ok((await keys(0)).length === nrows, "clearing the filter shows every row again");

// ---- follow every link of every page reachable from the index ----
const seen = new Set([index]), queue = [index];
let links = 0, pages = 0;
const bad = [];
const shotOf = { device: false, suite: false, report: false };
while (queue.length) {
  const url = queue.shift();
  await page.goto(url, { waitUntil: "load" });
  pages++;
  const kind = url.includes("/devices/") ? "device" : url.includes("/suites/") ? "suite" :
    url.endsWith("/report.html") ? "report" : "";
  if (kind && !shotOf[kind]) { shotOf[kind] = true; await shot(`${kind}.png`); }
  const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => [a.getAttribute("href"), a.href]));
  for (const [raw, abs] of hrefs) {
    links++;
    const u = new URL(abs);
    if (u.protocol !== "file:") { bad.push(`${url}: link outside the site: ${raw}`); continue; }
    const file = fileURLToPath(u);
    if (!file.startsWith(root + path.sep)) { bad.push(`${url}: link leaves the site: ${raw}`); continue; }
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) { bad.push(`${url}: broken link ${raw}`); continue; }
    if (u.hash) {
      const here = u.href.split("#")[0] === url.split("#")[0];
      if (here && !(await page.$(`[id="${decodeURIComponent(u.hash.slice(1))}"]`)))
        bad.push(`${url}: no element for ${raw}`);
    }
    const target = u.href.split("#")[0];
    if (file.endsWith(".html") && !seen.has(target)) { seen.add(target); queue.push(target); }
  }
}
ok(bad.length === 0, `${links} links on ${pages} pages followed` + (bad.length ? `: ${bad.slice(0, 5).join("; ")}` : ""));
ok(problems.length === 0, "no console error, page error or failed request" +
  (problems.length ? `: ${problems.slice(0, 5).join("; ")}` : ""));
await browser.close();
console.log(`1..${n}`);
process.exit(failed ? 1 : 0);
