// The language of the viewer's pages (docs/i18n.md): ?lang= in the URL, else the browser's; the words
// from the viewer's catalogue (GET /v1/messages/{lang}, made from viewer.po), English being the template
// itself; the switch at the top of each page keeps the choice in the URL.
"use strict";

const speech = {lang: "en", langInUrl: false, messages: {}};

function _(template, params = {}) {
  const found = speech.messages[template];
  return fill(typeof found === "string" && found ? found : template, params);
}

// a word in a context, where one English word is said two ways (Guandan's wild card: 逢人配)
function pgettext(context, template, params = {}) {
  const found = speech.messages[`${context}\u0004${template}`];
  return fill(typeof found === "string" && found ? found : template, params);
}

function ngettext(singular, plural, n, params = {}) {
  const found = speech.messages[singular];
  const forms = Array.isArray(found) && found[0] ? found : [singular, plural];
  const form = forms.length === 1 ? forms[0] : n === 1 ? forms[0] : forms[1];
  return fill(form, {n, ...params});
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function chosenLanguage(params) {
  const asked = params.get("lang");
  if (asked === "zh" || asked === "en") return asked;
  return (navigator.languages || [navigator.language]).some((tag) => /^zh\b/i.test(tag || "")) ? "zh" : "en";
}

// the language chosen and its catalogue, the page's language named, and its switch (#lang) wired
async function startLanguage() {
  const params = new URLSearchParams(location.search);
  speech.lang = chosenLanguage(params);
  speech.langInUrl = params.has("lang");
  if (speech.lang !== "en") {
    const response = await fetch(`/v1/messages/${speech.lang}`).catch(() => null);
    const body = response && response.ok ? await response.json().catch(() => ({})) : {};
    speech.messages = body.messages || {};
  }
  document.documentElement.lang = speech.lang === "zh" ? "zh-Hans" : "en";
  const switcher = document.querySelector("#lang");
  switcher.value = speech.lang;
  switcher.addEventListener("change", (event) => {
    const chosen = new URLSearchParams(location.search);
    chosen.set("lang", event.target.value);
    location.search = chosen.toString();
  });
}
