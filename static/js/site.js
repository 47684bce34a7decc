// Small progressive enhancements; every feature here also works without JavaScript.
(function () {
  "use strict";

  // Quote button: insert the quoted post into the reply box instead of reloading the page.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.quote-button");
    if (!link || !link.dataset.quoteUrl) return;
    var box = document.getElementById("reply-body");
    if (!box) return;
    event.preventDefault();
    fetch(link.dataset.quoteUrl, { credentials: "same-origin" })
      .then(function (response) { if (!response.ok) throw new Error(response.status); return response.text(); })
      .then(function (text) {
        var before = box.value && !/\n$/.test(box.value) ? "\n" : "";
        box.value = box.value + before + text;
        box.focus();
        box.scrollIntoView({ block: "center" });
      })
      .catch(function () { window.location.href = link.href; });
  });

  // Ctrl+Enter (Cmd+Enter) sends the reply.
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target.id === "reply-body") {
      var form = event.target.form;
      var send = form && form.querySelector("button[name=post]");
      if (send) { event.preventDefault(); send.click(); }
    }
  });
})();

// Vote button: insert the ready-made vote ("[b]В тюрьму Васю[/b]") into the reply box.
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("[data-insert]");
  if (!button) return;
  var box = document.getElementById("reply-body");
  if (!box) return;
  event.preventDefault();
  var before = box.value && !/\n$/.test(box.value) ? "\n" : "";
  box.value = box.value + before + button.dataset.insert;
  box.focus();
});

// Live countdowns to deadlines: the server prints the deadline in the viewer's time zone; this
// counts down to it, and reloads the region's data once when it passes.
(function () {
  function pad(n) { return n < 10 ? "0" + n : String(n); }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var end = Date.parse(el.getAttribute("datetime"));
      if (isNaN(end)) return;
      if (!el.dataset.label) el.dataset.label = el.textContent;
      var left = Math.max(0, Math.floor((end - now) / 1000));
      var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      el.textContent = el.dataset.label + " (" + (d ? d + "d " : "") + pad(h) + ":" + pad(m) + ":" + pad(s) + ")";
      if (left === 0) el.classList.add("passed");
    });
  }
  tick();
  setInterval(tick, 1000);
})();

// What is left of a stage as a duration (the Show's timer: «3 ч 20 мин»): the server prints it with
// its words in data-units («%(n)s д|%(n)s ч|%(n)s мин|меньше минуты»); this counts it down the same way.
(function () {
  function words(el, left) {
    var u = (el.dataset.units || "").split("|");
    if (u.length < 4) return null;
    var n = function (i, v) { return u[i].replace("%(n)s", v); };
    var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60);
    if (d) return n(0, d) + (h ? " " + n(1, h) : "");
    if (h) return n(1, h) + (m ? " " + n(2, m) : "");
    if (m) return n(2, m);
    return u[3];
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-remaining]").forEach(function (el) {
      var end = Date.parse(el.getAttribute("data-remaining"));
      if (isNaN(end)) return;
      var text = words(el, Math.max(0, Math.floor((end - now) / 1000)));
      if (text !== null) el.textContent = text;
    });
  }
  tick();
  setInterval(tick, 15000);
})();

// The deck page's colour filter: with JavaScript the colour list becomes buttons that show one
// colour (or the player's own and Neutral) and hide the other groups; their counts stay in the
// form, so the deck is checked and sent whole. Without JavaScript the list stays anchors. The
// choice survives the htmx swaps of the form.
(function () {
  var current = "all";
  function apply(root) {
    root.querySelectorAll("[data-colour-filter]").forEach(function (nav) {
      var buttons = nav.querySelector(".cards-filter-buttons"), anchors = nav.querySelector(".cards-filter-anchors");
      if (buttons) buttons.hidden = false;
      if (anchors) anchors.hidden = true;
      nav.querySelectorAll("[data-show-colour]").forEach(function (b) {
        b.setAttribute("aria-pressed", b.dataset.showColour === current ? "true" : "false");
      });
    });
    root.querySelectorAll(".cards-group[data-colour]").forEach(function (group) {
      var colour = group.dataset.colour;
      group.hidden = !(current === "all" || colour === current ||
                       (current === "mine" && (group.classList.contains("mine") || colour === "neutral")));
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-show-colour]");
    if (!button) return;
    event.preventDefault();
    current = button.dataset.showColour;
    apply(document);
  });
  document.addEventListener("DOMContentLoaded", function () { apply(document); });
  document.addEventListener("htmx:afterSwap", function () { apply(document); });
})();

// Destructive GM and moderator actions ask first (games/confirm.py). The question is in the
// form's (or the pressed button's) data-confirm; {field} names one of the form's fields and is
// replaced by what it holds now (a select's chosen option, a text typed). Accepted: the form goes
// with confirm=yes, so the server does it at once; refused: nothing is sent. Without JavaScript
// the server asks on a page of its own. Listens in the capture phase, before htmx's handlers.
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!form || form.tagName !== "FORM") return;
  var submitter = event.submitter;
  var question = (submitter && submitter.dataset && submitter.dataset.confirm) || form.dataset.confirm;
  if (!question) return;
  var filled = question.replace(/\{(\w+)\}/g, function (whole, name) {
    var field = form.elements[name];
    if (!field) return whole;
    if (field.tagName === "SELECT") {
      var option = field.options[field.selectedIndex];
      return option ? option.textContent.trim() : "";
    }
    return (field.value || "").trim() || "—";
  });
  if (!window.confirm(filled)) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  var flag = form.querySelector("input[name=confirm]");
  if (!flag) {
    flag = document.createElement("input");
    flag.type = "hidden";
    flag.name = "confirm";
    form.appendChild(flag);
  }
  flag.value = "yes";
}, true);

// The role commitment's check by the browser itself (the commitment page, the archive): SHA-256
// of the revealed text (the element named by data-sha256-of), compared with data-expected; the
// verdict element says data-ok or data-bad.
(function () {
  function check(root) {
    if (!window.crypto || !crypto.subtle || !window.TextEncoder) return;
    root.querySelectorAll("[data-sha256-of]").forEach(function (out) {
      var source = document.getElementById(out.dataset.sha256Of);
      if (!source) return;
      crypto.subtle.digest("SHA-256", new TextEncoder().encode(source.textContent)).then(function (buf) {
        var hex = Array.from(new Uint8Array(buf)).map(function (b) { return b.toString(16).padStart(2, "0"); }).join("");
        out.textContent = hex;
        var verdict = document.getElementById(out.dataset.verdict);
        if (!verdict) return;
        var ok = hex === (out.dataset.expected || "").trim();
        verdict.textContent = ok ? (verdict.dataset.ok || "✔") : (verdict.dataset.bad || "✘");
        verdict.className = ok ? "ok" : "error";
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { check(document); });
  else check(document);
})();

// The post box's length (games/_bbcode_help.html under every post form): characters used of the
// limit (the textarea's maxlength, equal to the server's), and a warning when the limit is reached
// or a paste did not fit (the browser inserts only what fits).
(function () {
  function update(area, cut) {
    var box = area.form && area.form.querySelector("[data-post-limit]");
    if (!box || !(area.maxLength > 0)) return;
    var used = area.value.length, full = cut || used >= area.maxLength;
    var count = box.querySelector("[data-post-count]");
    if (count) count.textContent = "(" + used + " / " + area.maxLength + ")";
    var warning = box.querySelector("[data-post-cut]");
    if (warning) warning.hidden = !full;
    box.classList.toggle("error", full);
  }
  document.addEventListener("input", function (event) {
    var area = event.target;
    if (area && area.tagName === "TEXTAREA" && area.maxLength > 0) update(area, false);
  });
  document.addEventListener("paste", function (event) {
    var area = event.target;
    if (!area || area.tagName !== "TEXTAREA" || !(area.maxLength > 0) || !event.clipboardData) return;
    var pasted = event.clipboardData.getData("text").replace(/\r\n?/g, "\n").length;
    var room = area.maxLength - area.value.length + (area.selectionEnd - area.selectionStart);
    var cut = pasted > room;
    window.setTimeout(function () { update(area, cut); }, 0);
  });
})();

// The new-game form (games.forms.GameCreateForm): the role table's help lists the roles of the
// chosen rule set only, and only its own option fields show (without JavaScript every rule set's
// line and field shows, each named; the server ignores the fields of a rule set not chosen). The
// player count follows the rule set's own (SiteRuleset.default_size: the Show's 10) until the GM
// types one himself.
(function () {
  function sync(select, moveSize) {
    var form = select.form;
    if (!form) return;
    form.querySelectorAll("[data-ruleset-help]").forEach(function (line) {
      line.hidden = line.dataset.rulesetHelp !== select.value;
    });
    form.querySelectorAll("[data-ruleset-field]").forEach(function (group) {
      group.hidden = group.dataset.rulesetField !== select.value;
    });
    var size = form.querySelector("[data-ruleset-sizes]");
    if (moveSize && size && !size.dataset.typed) {
      var sizes = JSON.parse(size.dataset.rulesetSizes || "{}");
      if (sizes[select.value]) size.value = sizes[select.value];
    }
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.matches && event.target.matches("[data-ruleset-select]")) sync(event.target, true);
  });
  document.addEventListener("input", function (event) {
    if (event.target && event.target.matches && event.target.matches("[data-ruleset-sizes]")) {
      event.target.dataset.typed = "1";
    }
  });
  // On load the count is the server's (the rule set's, or what the GM sent back with an error).
  function start() { document.querySelectorAll("[data-ruleset-select]").forEach(function (s) { sync(s, false); }); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// A search box over a long select (data-filter: the profile's time zone, accounts/timezones.py):
// typing hides the options whose text and value lack any of the words typed, and the groups left
// empty; if the chosen option is hidden, the first one shown is chosen.
(function () {
  function fold(text) { return text.toLowerCase().replace(/ё/g, "е").replace(/[−–]/g, "-").replace(/_/g, " "); }
  function attach(select) {
    if (select.dataset.filterReady) return;
    select.dataset.filterReady = "1";
    var box = document.createElement("input");
    box.type = "search";
    box.className = "select-filter";
    box.placeholder = select.dataset.filterLabel || "";
    box.setAttribute("aria-label", select.dataset.filterLabel || "");
    if (select.id) box.setAttribute("aria-controls", select.id);
    var none = document.createElement("p");
    none.className = "muted";
    none.hidden = true;
    none.setAttribute("role", "status");
    none.textContent = select.dataset.filterEmpty || "";
    select.parentNode.insertBefore(box, select);
    select.parentNode.insertBefore(none, select.nextSibling);
    box.addEventListener("input", function () {
      var words = fold(box.value).split(/\s+/).filter(Boolean), first = null;
      Array.prototype.forEach.call(select.options, function (option) {
        var text = fold(option.textContent + " " + option.value);
        option.hidden = !words.every(function (word) { return text.indexOf(word) !== -1; });
        if (!option.hidden && !first) first = option;
      });
      select.querySelectorAll("optgroup").forEach(function (group) {
        group.hidden = !Array.prototype.some.call(group.children, function (option) { return !option.hidden; });
      });
      none.hidden = !!first;
      var chosen = select.options[select.selectedIndex];
      if (first && (!chosen || chosen.hidden)) first.selected = true;
    });
  }
  function start() { document.querySelectorAll("select[data-filter]").forEach(attach); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// The header's menu button (a checkbox's label in base.html, so it works without JavaScript):
// Escape or a tap outside the menu closes it, and a page brought back by "Back" opens with it shut.
(function () {
  function toggle() { return document.getElementById("menu-toggle"); }
  document.addEventListener("keydown", function (event) {
    var box = toggle();
    if (event.key === "Escape" && box && box.checked) { box.checked = false; box.focus(); }
  });
  document.addEventListener("click", function (event) {
    var box = toggle();
    if (box && box.checked && !event.target.closest(".site-nav")) box.checked = false;
  });
  window.addEventListener("pageshow", function () { var box = toggle(); if (box) box.checked = false; });
})();

// A file over the site's request cap (config/upload_limits.py) is refused in the browser before
// it is sent, with the server's own words (the file input's data-too-large); the server refuses it
// anyway. An htmx form the server refused as too large (413) shows the answer above the form.
document.addEventListener("change", function (event) {
  var input = event.target;
  if (!input || input.type !== "file" || !input.dataset.maxBytes) return;
  var max = parseInt(input.dataset.maxBytes, 10);
  var tooLarge = Array.prototype.some.call(input.files || [], function (file) { return file.size > max; });
  input.setCustomValidity(tooLarge ? input.dataset.tooLarge : "");
  if (tooLarge) input.reportValidity();
});
document.addEventListener("htmx:responseError", function (event) {
  var xhr = event.detail && event.detail.xhr;
  if (!xhr || xhr.status !== 413) return;
  var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
  if (!form) return;
  var alert = form.querySelector("p.error[role=alert]");
  if (!alert) {
    alert = document.createElement("p");
    alert.className = "error";
    alert.setAttribute("role", "alert");
    form.insertBefore(alert, form.firstChild);
  }
  alert.textContent = xhr.responseText;
});
