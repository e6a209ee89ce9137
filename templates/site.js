/* site.js - inlined into the site's index.html: sort the table of result
   sets by a column and filter it by text.  The page reads fine without it
   (newest first, everything shown). */
(function () {
  "use strict";
  var table = document.getElementById("sets");
  var box = document.getElementById("filter");
  if (!table || !box) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  box.hidden = false;
  box.querySelector("input").addEventListener("input", function (ev) {
    var q = ev.target.value.toLowerCase();
    rows.forEach(function (r) {
      r.hidden = q !== "" && r.textContent.toLowerCase().indexOf(q) < 0;
    });
  });
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    var label = th.textContent;
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    th.textContent = "";
    th.appendChild(b);
    b.addEventListener("click", function () {
      var asc = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      var key = function (r) {
        var c = r.cells[col];
        var v = c.getAttribute("data-sort");
        return v !== null ? v : c.textContent.toLowerCase();
      };
      var num = th.classList.contains("n");
      rows.sort(function (x, y) {
        var a = key(x), b2 = key(y);
        var d = num ? parseFloat(a) - parseFloat(b2) : (a < b2 ? -1 : a > b2 ? 1 : 0);
        return asc ? d : -d;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
