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
